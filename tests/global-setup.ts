import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { runCliProcess } from './helpers/cli.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shipped site, built once for all browser tests. */
    siteDir: string;
  }
}

/** Builds the shipped content once; the browser and quality tests read and serve this copy. */
export default async function setup(project: TestProject) {
  const out = mkdtempSync(join(tmpdir(), 'studio-site-'));
  const dist = join(out, 'dist');
  const r = await runCliProcess(['build', '--out', dist]);
  if (r.code !== 0) throw new Error(`content build failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
  project.provide('siteDir', dist);
  return () => rmSync(out, { recursive: true, force: true });
}
