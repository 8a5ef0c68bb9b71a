import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentCopy } from '../helpers/cli.ts';
import { syntheticContent } from '../helpers/synthetic.ts';
import { type JsonProblem, runBounded, STACK_LINE } from './bounded-cli.ts';

/**
 * Only regular files inside the content folder are read (issue 12, items 6 and 10). Each case
 * puts one thing into a copy of the shipped content that used to hang the CLI, exhaust its
 * memory, crash it, or print what a link points at; the real CLI must answer with one clean
 * content error that names the file and says why, and print nothing of the target.
 */

/** What the child finds in its environment, and what a file outside the content folder holds. */
const SECRET = `smtp-pass-${randomUUID()}`;
const ENV = { STUDIO_TEST_SECRET: SECRET };
const outside = mkdtempSync(join(tmpdir(), 'studio-outside-'));
writeFileSync(join(outside, 'shadow.yaml'), `root: ${SECRET}\n`);
mkdirSync(join(outside, 'elsewhere'));
writeFileSync(join(outside, 'elsewhere', 'leaked.yaml'), `password: ${SECRET}\n`);
writeFileSync(join(outside, 'elsewhere', 'passwd-secret-name.txt'), 'x');
afterAll(() => rmSync(outside, { recursive: true, force: true }));

interface Case {
  name: string;
  /** Puts the bad thing into the content copy; returns what to undo after the run (a socket to close). */
  setup: (dir: string) => undefined | (() => void) | Promise<() => void>;
  file: string;
  code: string;
  /** Words the message must contain. */
  says: RegExp;
  /** Only where root may create it. */
  rootOnly?: boolean;
}

const listen = (path: string) =>
  new Promise<() => void>((resolve) => {
    const server: Server = createServer().listen(path, () => resolve(() => server.close()));
  });

const CASES: Case[] = [
  {
    name: 'a symlink to /proc/self/environ (the SMTP password is in the environment)',
    setup: (dir) => void symlinkSync('/proc/self/environ', join(dir, 'courses/env.yaml')),
    file: 'courses/env.yaml',
    code: 'outside-content',
    says: /symbolic link.*out of the content folder/,
  },
  {
    name: 'a symlink to a file outside the content folder (as /etc/shadow)',
    setup: (dir) => void symlinkSync(join(outside, 'shadow.yaml'), join(dir, 'teachers/shadow.yaml')),
    file: 'teachers/shadow.yaml',
    code: 'outside-content',
    says: /symbolic link.*out of the content folder/,
  },
  {
    name: 'ui.yaml replaced by a relative symlink that climbs out of the content folder',
    setup: (dir) => {
      rmSync(join(dir, 'ui.yaml'));
      symlinkSync(relative(dir, join(outside, 'shadow.yaml')), join(dir, 'ui.yaml'));
    },
    file: 'ui.yaml',
    code: 'outside-content',
    says: /symbolic link.*out of the content folder/,
  },
  {
    name: 'a symlink to /dev/zero (used to eat 4.8 GB and abort)',
    setup: (dir) => void symlinkSync('/dev/zero', join(dir, 'courses/zero.yaml')),
    file: 'courses/zero.yaml',
    code: 'outside-content',
    says: /symbolic link.*out of the content folder/,
  },
  {
    name: 'a FIFO (used to hang forever)',
    setup: (dir) => void execFileSync('mkfifo', [join(dir, 'courses/pipe.yaml')]),
    file: 'courses/pipe.yaml',
    code: 'not-a-file',
    says: /named pipe/,
  },
  {
    name: 'a character device inside the content folder',
    setup: (dir) => void execFileSync('mknod', [join(dir, 'courses/device.yaml'), 'c', '1', '5']), // /dev/zero's numbers
    file: 'courses/device.yaml',
    code: 'not-a-file',
    says: /device/,
    rootOnly: true,
  },
  {
    name: 'a socket',
    setup: (dir) => listen(join(dir, 'teachers/socket.yaml')),
    file: 'teachers/socket.yaml',
    code: 'not-a-file',
    says: /socket/,
  },
  {
    name: 'a file over 1 MB',
    setup: (dir) => void writeFileSync(join(dir, 'courses/huge.yaml'), `${'# padding\n'.repeat(110_000)}order: 1\n`),
    file: 'courses/huge.yaml',
    code: 'file-too-large',
    says: /1 MB/,
  },
  {
    name: 'a symlink loop (used to exit 70 with a stack trace)',
    setup: (dir) => void symlinkSync('loop.yaml', join(dir, 'courses/loop.yaml')),
    file: 'courses/loop.yaml',
    code: 'symlink-loop',
    says: /loop/,
  },
  {
    name: 'site.yaml as a symlink loop (used to be reported as missing)',
    setup: (dir) => {
      rmSync(join(dir, 'site.yaml'));
      symlinkSync('site.yaml', join(dir, 'site.yaml'));
    },
    file: 'site.yaml',
    code: 'symlink-loop',
    says: /loop/,
  },
  {
    name: 'the courses folder as a symlink to a folder outside',
    setup: (dir) => {
      rmSync(join(dir, 'courses'), { recursive: true });
      symlinkSync(join(outside, 'elsewhere'), join(dir, 'courses'));
    },
    file: 'courses/',
    code: 'outside-content',
    says: /symbolic link.*out of the content folder/,
  },
];

const isRoot = process.getuid?.() === 0;

async function withCase<T>(c: Case, run: (dir: string) => Promise<T>): Promise<T> {
  const copy = contentCopy();
  const undo = await c.setup(copy.dir);
  try {
    return await run(copy.dir);
  } finally {
    undo?.();
    copy.cleanup();
  }
}

function expectClean(out: { stdout: string; stderr: string; timedOut: boolean }) {
  expect(out.timedOut, 'the command hung and was killed').toBe(false);
  const all = out.stdout + out.stderr;
  expect(all).not.toMatch(STACK_LINE);
  expect(all).not.toContain('internal error');
  expect(all).not.toContain(SECRET);
  expect(all).not.toContain('passwd-secret-name');
  expect(all).not.toContain(outside); // not even where a link points
}

describe('validate reads only regular files inside the content folder', () => {
  for (const c of CASES)
    it.skipIf(c.rootOnly && !isRoot)(c.name, async () => {
      await withCase(c, async (dir) => {
        const json = await runBounded(['validate', '--content', dir, '--format', 'json', '--today', '2026-11-22'], { env: ENV });
        expectClean(json);
        expect(json.code).toBe(1);
        const problems = (JSON.parse(json.stdout) as { problems: JsonProblem[] }).problems;
        const mine = problems.filter((p) => p.file === c.file && p.severity === 'error');
        expect(mine.map((p) => p.code)).toEqual([c.code]); // one mistake, one error
        expect(mine[0]!.message).toMatch(c.says);
        expect(mine[0]!.hint).toBeTruthy();

        const human = await runBounded(['validate', '--content', dir, '--today', '2026-11-22'], { env: ENV });
        expectClean(human);
        expect(human.code).toBe(1);
        expect(human.stdout + human.stderr).toContain(c.file);
      });
    });

  it('reads a symlink to a regular file inside the content folder like the file itself', async () => {
    const copy = contentCopy();
    try {
      renameSync(join(copy.dir, 'courses/vocal.yaml'), join(copy.dir, 'courses/.vocal-source.yaml'));
      symlinkSync('.vocal-source.yaml', join(copy.dir, 'courses/vocal.yaml'));
      const out = await runBounded(['validate', '--content', copy.dir, '--format', 'json', '--today', '2026-11-22']);
      expectClean(out);
      expect((JSON.parse(out.stdout) as { errors: number }).errors).toBe(0);
      expect(out.code).toBe(0);
    } finally {
      copy.cleanup();
    }
  });
});

describe('the size limit grows with the site', () => {
  it('a routes.yaml over 1 MB is read when the site has courses enough to need it (4 KB per course or teacher)', async () => {
    const site = syntheticContent(300); // 300 courses and a few teachers: a limit of about 1.18 MB
    try {
      const routes = join(site.dir, 'routes.yaml');
      appendFileSync(routes, '# padding\n'.repeat(Math.ceil((1.05 * 2 ** 20 - statSync(routes).size) / 10))); // 1.05 MB in all
      const out = await runBounded(['validate', '--content', site.dir, '--format', 'json', '--today', '2026-11-22']);
      expectClean(out);
      const problems = (JSON.parse(out.stdout) as { problems: JsonProblem[] }).problems;
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    } finally {
      site.cleanup();
    }
  });
});

describe('build stops before writing anything', () => {
  const pick = [
    'a symlink to /proc/self/environ (the SMTP password is in the environment)',
    'a FIFO (used to hang forever)',
    'a file over 1 MB',
    'a symlink loop (used to exit 70 with a stack trace)',
  ];
  for (const c of CASES.filter((c) => pick.includes(c.name)))
    it(c.name, async () => {
      await withCase(c, async (dir) => {
        const out = join(dir, '..', `${dir.split('/').at(-1)}-site`);
        try {
          const run = await runBounded(['build', '--content', dir, '--out', out, '--today', '2026-11-22'], { env: ENV, limitMs: 50_000 });
          expectClean(run);
          expect(run.code).toBe(1);
          expect(run.stdout + run.stderr).toContain(c.file);
          expect(run.stdout + run.stderr).toMatch(c.says);
          expect(existsSync(out), 'the build wrote its output folder').toBe(false);
        } finally {
          rmSync(out, { recursive: true, force: true });
        }
      });
    });
});

describe('i18n and dev read through the same guard', () => {
  it('content i18n with a FIFO as translations.yaml and a link to the environment', async () => {
    const copy = contentCopy();
    try {
      rmSync(join(copy.dir, 'translations.yaml'));
      execFileSync('mkfifo', [join(copy.dir, 'translations.yaml')]);
      symlinkSync('/proc/self/environ', join(copy.dir, 'courses/env.yaml'));
      const out = await runBounded(['i18n', '--content', copy.dir, '--format', 'json'], { env: ENV });
      expectClean(out);
      expect(out.code).toBe(1);
      const problems = (JSON.parse(out.stdout) as { problems: JsonProblem[] }).problems;
      expect(problems.find((p) => p.file === 'translations.yaml')?.code).toBe('not-a-file');
      expect(problems.find((p) => p.file === 'courses/env.yaml')?.code).toBe('outside-content');
    } finally {
      copy.cleanup();
    }
  });

  it('content i18n --confirm does not write through a translations.yaml that links out of the content folder', async () => {
    const copy = contentCopy();
    const target = join(outside, 'lock-target.yaml');
    writeFileSync(target, `mine: ${SECRET}\n`);
    try {
      rmSync(join(copy.dir, 'translations.yaml'));
      symlinkSync(target, join(copy.dir, 'translations.yaml'));
      const out = await runBounded(['i18n', '--content', copy.dir, '--confirm', '--locale', 'en', '--format', 'json'], { env: ENV });
      expectClean(out);
      expect(out.code).toBe(1);
      const problems = (JSON.parse(out.stdout) as { problems: JsonProblem[] }).problems;
      expect(
        problems
          .filter((p) => p.file === 'translations.yaml')
          .map((p) => p.code)
          .sort(),
      ).toEqual(['not-confirmed', 'outside-content']);
      expect(readFileSync(target, 'utf8')).toBe(`mine: ${SECRET}\n`);
    } finally {
      copy.cleanup();
    }
  });

  it('content dev shows the problem in the page instead of hanging on a FIFO', async () => {
    const copy = contentCopy();
    execFileSync('mkfifo', [join(copy.dir, 'courses/pipe.yaml')]);
    symlinkSync('/proc/self/environ', join(copy.dir, 'courses/env.yaml'));
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const stop = new AbortController();
    const dev = runBounded(['dev', '--content', copy.dir, '--port', String(port)], { env: ENV, limitMs: 40_000, stop: stop.signal });
    try {
      let page: Response | undefined;
      for (let i = 0; i < 150 && !page; i++) {
        page = await fetch(`http://127.0.0.1:${port}/`).catch(() => undefined);
        if (!page) await new Promise((r) => setTimeout(r, 200));
      }
      expect(page, 'content dev never answered').toBeDefined();
      expect(page!.status).toBe(500);
      const html = await page!.text();
      expect(html).toContain('courses/pipe.yaml');
      expect(html).toContain('courses/env.yaml');
      expect(html).not.toContain(SECRET);
    } finally {
      stop.abort();
      expect((await dev).stdout + (await dev).stderr).not.toContain(SECRET);
      copy.cleanup();
    }
  });
});
