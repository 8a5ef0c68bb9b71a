import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Reporter, TestSpecification, Vitest } from 'vitest/node';
import { runCliProcess } from './helpers/cli.ts';

/** The file in a test file's temporary folder that names the test file (tests/temp-folder.ts writes it). */
const NAMED_BY = '.test-file';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shipped site, built once per run for the tests that serve or browse it (`inject('siteDir')`). */
    siteDir: string;
  }
}

/** Whether a test file reads the built site: it names it by `inject('siteDir')`, the one way to get it. */
const needsSite = (spec: TestSpecification): boolean => readFileSync(spec.moduleId, 'utf8').includes("inject('siteDir')");

/**
 * A site built beforehand from the shipped content (`npm test` builds it once for both of its vitest
 * runs, the tests and Lighthouse): used as it is, and left in place.
 */
const GIVEN_SITE = 'STUDIO_TEST_SITE';

/**
 * The run's own temporary folder, and the shipped site built once for it.
 *
 * Every test file's temporary folders, servers' inboxes and Chromium profiles go under one folder
 * of the run (TMPDIR, which the workers and every process they start inherit); what a test left
 * there is named when the run ends (so a test that does not clean up is seen), then removed with
 * the folder, whatever killed the processes that wrote it.
 *
 * The shipped content is built once per run, before any test file starts, and only when a file of
 * the run needs it: a run of one small test file builds nothing. Vitest awaits a reporter's
 * `onTestRunStart` (with the files about to run) before it starts any worker, and the workers are
 * handed what `provide` set; the folder goes when the run ends.
 */
export default class BuiltSite implements Reporter {
  private vitest?: Vitest;
  private out?: string;
  private root?: string;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    process.env.STUDIO_TEST_TMP_OUTER = tmpdir();
    this.root = mkdtempSync(join(tmpdir(), 'studio-tests-'));
    // As /tmp is: processes the tests run as another user (PostgreSQL, the service user) make their folders here too.
    chmodSync(this.root, 0o1777);
    process.env.TMPDIR = this.root;
    // tests/temp-folder.ts gives each test file a folder of its own in it.
    process.env.STUDIO_TEST_TMP = this.root;
    const root = this.root;
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  }

  async onTestRunStart(specifications: ReadonlyArray<TestSpecification>): Promise<void> {
    if (this.out || !specifications.some(needsSite)) return;
    const given = process.env[GIVEN_SITE];
    if (given && existsSync(join(given, 'index.html'))) {
      this.vitest!.provide('siteDir', given);
      return;
    }
    this.out = mkdtempSync(join(tmpdir(), 'studio-site-'));
    const dist = join(this.out, 'dist');
    const r = await runCliProcess(['build', '--out', dist]);
    if (r.code !== 0) throw new Error(`content build failed (${r.code}):\n${r.stdout}\n${r.stderr}`);
    this.vitest!.provide('siteDir', dist);
  }

  onTestRunEnd(): void {
    if (this.out) rmSync(this.out, { recursive: true, force: true });
    this.out = undefined;
    if (!this.root) return;
    const left = readdirSync(this.root);
    const found: string[] = [];
    for (const name of left) {
      // A test file's own folder (tests/temp-folder.ts), or something the run itself left at the top.
      const named = join(this.root, name, NAMED_BY);
      const inside = existsSync(named)
        ? readdirSync(join(this.root, name)).filter((e) => e !== NAMED_BY && !lstatSync(join(this.root!, name, e)).isSymbolicLink())
        : [name];
      const kinds = new Map<string, number>();
      for (const entry of inside.filter((e) => e !== 'node-compile-cache')) {
        const kind = entry.replace(/[-_.][^-_.]*$/, '');
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      }
      if (kinds.size) found.push(`${existsSync(named) ? readFileSync(named, 'utf8') : '(the run)'}: ${[...kinds].map(([k, n]) => `${k}* (${n})`).join(', ')}`);
    }
    if (found.length) process.stderr.write(`\nLeft in the temporary folder by the tests (removed now):\n  ${found.join('\n  ')}\n`);
    for (const name of left) {
      try {
        rmSync(join(this.root, name), { recursive: true, force: true });
      } catch (error) {
        process.stderr.write(`Could not remove ${join(this.root, name)}: ${(error as Error).message}\n`);
      }
    }
  }
}
