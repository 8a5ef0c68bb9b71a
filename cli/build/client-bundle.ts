// A child process of `content build`: builds the client bundle into the cache (client-assets.ts),
// so that Vite's work runs beside the build's validation, and its memory goes when it exits.
import { renderDocument } from '../../templates/render.tsx';
import { bundleSamples } from './bundle-samples.ts';
import { clientAssets } from './client-assets.ts';

const key = process.argv[2];
try {
  if (!key) throw new Error('usage: client-bundle KEY');
  await clientAssets(bundleSamples(), renderDocument, key);
} catch (error) {
  process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
  process.exitCode = 1;
}
