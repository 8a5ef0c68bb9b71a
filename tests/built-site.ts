import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter, TestSpecification, Vitest } from 'vitest/node';
import { runCliProcess } from './helpers/cli.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shipped site, built once per run for the tests that serve or browse it (`inject('siteDir')`). */
    siteDir: string;
  }
}

/** Whether a test file reads the built site: it names it by `inject('siteDir')`, the one way to get it. */
const needsSite = (spec: TestSpecification): boolean => readFileSync(spec.moduleId, 'utf8').includes("inject('siteDir')");

/**
 * Builds the shipped content once per run, before any test file starts, and only when a file of the
 * run needs it: a run of one small test file builds nothing. Vitest awaits a reporter's
 * `onTestRunStart` (with the files about to run) before it starts any worker, and the workers are
 * handed what `provide` set; the folder goes when the run ends.
 */
export default class BuiltSite implements Reporter {
  private vitest?: Vitest;
  private out?: string;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    if (this.out || !specifications.some(needsSite)) return;
    this.out = mkdtempSync(join(tmpdir(), 'studio-site-'));
    const dist = join(this.out, 'dist');
    const r = await runCliProcess(['build', '--out', dist]);
    if (r.code !== 0) throw new Error(`content build failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
    this.vitest!.provide('siteDir', dist);
  }

  onTestRunEnd(): void {
    if (this.out) rmSync(this.out, { recursive: true, force: true });
    this.out = undefined;
  }
}
