#!/usr/bin/env node
// The `content` command. The TypeScript sources run from an esbuild bundle kept in
// node_modules/.cache, rebuilt whenever a source file is newer than it (about 0.2 s), so a
// plain `content validate` starts in a fraction of the time a TypeScript loader needs.
// Without esbuild it falls back to tsx's loader.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outdir = join(root, 'node_modules', '.cache', 'studio-site', 'cli');
const entry = join(outdir, 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(path));
    else if (/\.(ts|tsx|json)$/.test(e.name)) newest = Math.max(newest, statSync(path).mtimeMs);
  }
  return newest;
}

async function loadMain() {
  const sources = Math.max(newestSource(join(root, 'cli')), newestSource(join(root, 'templates')), statSync(join(root, 'package.json')).mtimeMs);
  if (process.env.STUDIO_NO_BUNDLE !== '1') {
    try {
      if (!existsSync(entry) || statSync(entry).mtimeMs < sources) {
        const { build } = await import('esbuild');
        mkdirSync(outdir, { recursive: true });
        await build({
          entryPoints: {
            main: join(root, 'cli', 'main.ts'),
            'render-worker': join(root, 'cli', 'build', 'render-worker.ts'),
          },
          outdir,
          bundle: true,
          splitting: true,
          format: 'esm',
          platform: 'node',
          target: 'node20',
          packages: 'external',
          jsx: 'automatic',
          loader: { '.css': 'empty' },
          logLevel: 'silent',
        });
      }
      return await import(pathToFileURL(entry).href);
    } catch {
      // Fall through to the loader below.
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('./main.ts');
}

// A reader that stops early (`content validate | head`) closes the pipe: that is not an error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

const { main } = await loadMain();
process.exitCode = await main(process.argv.slice(2));
