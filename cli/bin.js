#!/usr/bin/env node
// The `content` command. The TypeScript sources run from an esbuild bundle kept in
// node_modules/.cache, rebuilt whenever the hash of the sources (cli/, templates/, package.json,
// the lockfile) is not the one it was built from (about 0.2 s), so a plain `content validate`
// starts in a fraction of the time a TypeScript loader needs. Without esbuild it falls back to
// tsx's loader. The hash, not the files' times: a copy or checkout that keeps older times must
// not run the bundle of other sources.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const outdir = join(root, 'node_modules', '.cache', 'studio-site', 'cli');
const entry = join(outdir, 'main.js');
const keyFile = join(outdir, 'sources.sha256');

function hashSources(hash, dir, rel) {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) hashSources(hash, path, `${rel}${e.name}/`);
    else hash.update(`${rel}${e.name}\0`).update(readFileSync(path)).update('\0');
  }
}

function sourcesKey() {
  const hash = createHash('sha256');
  hashSources(hash, join(root, 'cli'), 'cli/');
  hashSources(hash, join(root, 'templates'), 'templates/');
  for (const file of ['package.json', 'package-lock.json']) if (existsSync(join(root, file))) hash.update(`${file}\0`).update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

async function loadMain() {
  if (process.env.STUDIO_NO_BUNDLE !== '1') {
    try {
      const key = sourcesKey();
      if (!existsSync(entry) || !existsSync(keyFile) || readFileSync(keyFile, 'utf8') !== key) {
        const { build } = await import('esbuild');
        mkdirSync(outdir, { recursive: true });
        await build({
          entryPoints: {
            main: join(root, 'cli', 'main.ts'),
            'render-worker': join(root, 'cli', 'render', 'render-worker.ts'),
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
        writeFileSync(keyFile, key);
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
