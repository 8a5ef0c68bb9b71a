import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walk } from '../../cli/util/walk.ts';
import { ROOT } from '../helpers/cli.ts';
import { syntheticContent } from '../helpers/synthetic.ts';
import { expectUsageError, runIn, tree } from './run-in.ts';

// "Nothing we do deletes or overwrites what we did not write":
// every --out that is not new, empty or a site this build made is refused, and replacing a
// site removes only the files its mark lists.
const content = syntheticContent(3);
const work = mkdtempSync(join(tmpdir(), 'studio-out-'));
const TODAY = ['--today', '2026-11-22'];
const MARK = '.studio-site.json';

/** A fresh folder for one test: a copy of the content in `content/` and a note of the user's. */
function project(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  cpSync(content.dir, join(dir, 'content'), { recursive: true });
  writeFileSync(join(dir, 'notes.txt'), 'my notes\n');
  return dir;
}

/** Waits until the detached deletions beside the sites in `dir` are done (999999999: the tests' decoys). */
async function settled(dir: string) {
  const trash = () => readdirSync(dir).filter((n) => /^\.[^.]+\.(trash|previous)-(?!999999999)\d+/.test(n));
  while (trash().length) await new Promise((r) => setTimeout(r, 100)); // no time limit of its own: the test's is the backstop
  expect(trash()).toEqual([]);
}

const build = (cwd: string, ...args: string[]) => runIn(cwd, ['build', ...TODAY, '--quiet', ...args]);

beforeAll(() => {
  mkdirSync(work, { recursive: true });
});

afterAll(() => {
  content.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe('content build --out refuses what it did not write, and leaves it in place', () => {
  it('a folder of the user (a thesis)', async () => {
    const dir = project('thesis');
    mkdirSync(join(dir, 'unrelated'));
    writeFileSync(join(dir, 'unrelated', 'thesis.txt'), 'three years of work\n');
    const before = tree(dir);
    const r = await build(dir, '--content', 'content', '--out', join(dir, 'unrelated'));
    expectUsageError(r, /unrelated.*not a site built by "content build".*thesis\.txt/);
    expect(tree(dir)).toEqual(before);
  });

  it('the working directory that holds the content (--out .)', async () => {
    const dir = project('dot');
    const before = tree(dir);
    const r = await build(dir, '--content', 'content', '--out', '.');
    expectUsageError(r, /holds the content folder/);
    expect(tree(dir)).toEqual(before);
  });

  it('the content folder itself, relative and absolute', async () => {
    const dir = project('content-out');
    const before = tree(dir);
    expectUsageError(await build(dir, '--content', 'content', '--out', 'content'), /is the content folder/);
    const abs = join(dir, 'content');
    expectUsageError(await build(work, '--content', abs, '--out', abs), /is the content folder/);
    expectUsageError(await build(dir, '--content', 'content', '--out', 'content/site'), /inside the content folder/);
    expect(tree(dir)).toEqual(before);
  });

  it('a file', async () => {
    const dir = project('file');
    const before = tree(dir);
    expectUsageError(await build(dir, '--content', 'content', '--out', 'notes.txt'), /notes\.txt.*is a file/);
    expect(tree(dir)).toEqual(before);
  });

  it('a symbolic link to a folder', async () => {
    const dir = project('link');
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'site'));
    const before = tree(dir);
    expectUsageError(await build(dir, '--content', 'content', '--out', 'site'), /symbolic link/);
    expect(tree(dir)).toEqual(before);
  });

  it('the home folder, and the working directory itself', async () => {
    const dir = project('home');
    const home = join(dir, 'home');
    mkdirSync(home);
    const before = tree(dir);
    expectUsageError(await runIn(dir, ['build', '--content', 'content', '--out', home], { env: { HOME: home } }), /home folder/);
    mkdirSync(join(work, 'empty-cwd'));
    expectUsageError(await build(join(work, 'empty-cwd'), '--content', join(dir, 'content'), '--out', '.'), /working directory/);
    expect(tree(dir)).toEqual(before);
  });

  it('the project root (the compiler itself) and /', async () => {
    // Run from a disposable copy of the compiler (its sources; node_modules linked), so that
    // even a compiler without this guard could only ever move the copy aside, never the project.
    const copy = join(work, 'compiler');
    mkdirSync(copy);
    for (const f of ['cli', 'templates', 'package.json', 'tsconfig.json']) cpSync(join(ROOT, f), join(copy, f), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const before = tree(copy);
    const run = (out: string) =>
      runIn(work, ['build', '--content', content.dir, '--out', out], { env: { STUDIO_NO_BUNDLE: '1' }, script: join(copy, 'cli/bin.js') });
    expectUsageError(await run(copy), /compiler/);
    expectUsageError(await run('/'), /root folder/);
    expect(tree(copy)).toEqual(before);
  });
});

describe('content build replaces only a site it built', () => {
  const dir = join(work, 'sites');
  const site = join(dir, 'dist');

  it('builds into a new path, marking every file it wrote', async () => {
    mkdirSync(dir, { recursive: true });
    const r = await build(dir, '--content', content.dir, '--out', 'dist');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const mark = JSON.parse(readFileSync(join(site, MARK), 'utf8'));
    expect(mark.tool).toBe('studio-site');
    expect(mark.format).toBe(1);
    expect(mark.files).toEqual([...walk(site)].filter((f) => f !== MARK).sort());
  });

  it('builds into an empty folder', async () => {
    mkdirSync(join(dir, 'empty'));
    const r = await build(dir, '--content', content.dir, '--out', 'empty');
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, 'empty', 'index.html'))).toBe(true);
  });

  it('replaces its own site, removing the pages that are gone, keeping files a user put there', async () => {
    // The inbox of a server started with --data dist/inbox, and a verification file.
    mkdirSync(join(site, 'inbox'));
    writeFileSync(join(site, 'inbox', 'enquiries.jsonl'), '{"id":1,"name":"Anna"}\n');
    writeFileSync(join(site, 'inbox', 'serve.lock'), '12345');
    writeFileSync(join(site, 'en', 'google-verification.html'), 'google-site-verification: abc\n');
    const fewer = syntheticContent(2);
    try {
      const r = await build(dir, '--content', fewer.dir, '--out', 'dist');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    } finally {
      fewer.cleanup();
    }
    expect(existsSync(join(site, 'course00002.html'))).toBe(false);
    expect(existsSync(join(site, 'course00001.html'))).toBe(true);
    expect(readFileSync(join(site, 'inbox', 'enquiries.jsonl'), 'utf8')).toBe('{"id":1,"name":"Anna"}\n');
    expect(readFileSync(join(site, 'inbox', 'serve.lock'), 'utf8')).toBe('12345');
    expect(readFileSync(join(site, 'en', 'google-verification.html'), 'utf8')).toBe('google-site-verification: abc\n');
    // The mark lists what this build wrote, not what it carried over.
    const mark = JSON.parse(readFileSync(join(site, MARK), 'utf8'));
    expect(mark.files).not.toContain('inbox/enquiries.jsonl');
    expect(mark.files).not.toContain('en/google-verification.html');
    expect(mark.files).toEqual(
      [...walk(site)].filter((f) => ![MARK, 'inbox/enquiries.jsonl', 'inbox/serve.lock', 'en/google-verification.html'].includes(f)).sort(),
    );
  });

  it('refuses to replace a site where a user put a file at a path the new build writes', async () => {
    // The site has 2 courses now; a user wrote a page of the third by hand.
    writeFileSync(join(site, 'course00002.html'), '<p>by hand</p>\n');
    await settled(dir);
    const before = tree(dir);
    try {
      const r = await build(dir, '--content', content.dir, '--out', 'dist');
      expectUsageError(r, /course00002\.html/);
      await settled(dir);
      expect(tree(dir)).toEqual(before);
    } finally {
      rmSync(join(site, 'course00002.html'));
    }
  });

  it('leaves folders of the user named like its leftovers beside --out', async () => {
    const decoys = ['.dist.previous', '.dist.previous-999999999', '.dist.staging-1', '.dist.staging-999999999', '.dist.trash-999999999-1'];
    for (const d of decoys) {
      mkdirSync(join(dir, d, 'en'), { recursive: true });
      writeFileSync(join(dir, d, 'en', 'index.html'), `mine: ${d}\n`);
    }
    const before = new Map([...tree(dir)].filter(([path]) => decoys.some((d) => path.startsWith(d))));
    const r = await build(dir, '--content', content.dir, '--out', 'dist');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // The old site is deleted by a process of its own; give it time, then nothing of the user's is gone.
    const ours = () => readdirSync(dir).filter((n) => n.startsWith('.dist.') && !decoys.includes(n));
    while (ours().length) await new Promise((r) => setTimeout(r, 100)); // no time limit of its own: the test's is the backstop
    expect(ours()).toEqual([]);
    const after = new Map([...tree(dir)].filter(([path]) => decoys.some((d) => path.startsWith(d))));
    expect(after).toEqual(before);
    expect(readFileSync(join(site, 'inbox', 'enquiries.jsonl'), 'utf8')).toBe('{"id":1,"name":"Anna"}\n');
  });

  it('restores a site a build killed between the two renames of its swap left aside, with the files of the user in it', async () => {
    const killed = join(dir, '.restored.previous-999999999');
    cpSync(site, killed, { recursive: true });
    const r = await build(dir, '--content', content.dir, '--out', 'restored');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(killed)).toBe(false);
    expect(readFileSync(join(dir, 'restored', 'inbox', 'enquiries.jsonl'), 'utf8')).toBe('{"id":1,"name":"Anna"}\n');
  });

  it('keeps a leftover of its own that holds files of the user, and says so', async () => {
    const left = join(dir, '.dist.trash-999999999-2');
    cpSync(site, left, { recursive: true });
    const before = tree(left);
    const r = await build(dir, '--content', content.dir, '--out', 'dist');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /warning .*\.dist\.trash-999999999-2 was left in place: it holds files "content build" did not write \(en\/google-verification\.html, inbox\)/,
    );
    await settled(dir);
    expect(tree(left)).toEqual(before);
  });

  // An inbox on a file system of its own (mounted into the site) cannot be renamed into the new site.
  it.runIf(process.getuid?.() === 0)('refuses, and moves back what it moved, when a file of the user cannot be carried over', async () => {
    const mounted = join(dir, 'mounted');
    expect((await build(dir, '--content', content.dir, '--out', 'mounted')).code).toBe(0);
    writeFileSync(join(mounted, 'a-note.txt'), 'mine\n');
    mkdirSync(join(mounted, 'inbox'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'studio-test', join(mounted, 'inbox')]);
    try {
      writeFileSync(join(mounted, 'inbox', 'enquiries.jsonl'), '{"id":1}\n');
      await settled(dir);
      const before = tree(dir);
      expectUsageError(await build(dir, '--content', content.dir, '--out', 'mounted'), /inbox.*cannot be moved into the new site/);
      await settled(dir);
      expect(tree(dir)).toEqual(before);
    } finally {
      execFileSync('umount', [join(mounted, 'inbox')]);
    }
  });

  it('refuses a site marked by a newer format it does not know', async () => {
    const newer = join(dir, 'newer');
    cpSync(site, newer, { recursive: true });
    const mark = JSON.parse(readFileSync(join(newer, MARK), 'utf8'));
    writeFileSync(join(newer, MARK), JSON.stringify({ ...mark, format: 99 }));
    const before = tree(newer);
    expectUsageError(await build(dir, '--content', content.dir, '--out', 'newer'), /newer/);
    expect(tree(newer)).toEqual(before);
  });
});

describe('content serve --out', () => {
  it('refuses a folder that is not a built site, even one with the server manifest copied in', async () => {
    const dir = join(work, 'serve');
    mkdirSync(dir, { recursive: true });
    const r0 = await build(dir, '--content', content.dir, '--out', 'dist');
    expect(r0.code).toBe(0);
    cpSync(join(dir, 'dist'), join(dir, 'copy'), { recursive: true });
    rmSync(join(dir, 'copy', MARK));
    const before = tree(dir);
    const r = await runIn(dir, ['serve', '--out', 'copy', '--port', '0', '--data', join(work, 'serve-data')], { timeoutMs: 20_000 });
    expectUsageError(r, /copy.*not a site built by "content build"/);
    const file = await runIn(dir, ['serve', '--out', 'dist/index.html', '--port', '0', '--data', join(work, 'serve-data')], { timeoutMs: 20_000 });
    expectUsageError(file, /is a file/);
    expect(tree(dir)).toEqual(before);
  });
});
