import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeWhole } from '../../cli/i18n/translation-lock.ts';
import { contentCopy, runCli } from '../helpers/cli.ts';
import { tinyDisk } from '../helpers/tiny-disk.ts';

interface Reported {
  code: string;
  severity: string;
  file: string;
  line?: number;
  path?: string;
  locale?: string;
  message: string;
  hint?: string;
}

const run = async (command: string, dir: string, ...args: string[]) => {
  const r = await runCli([command, '--content', dir, '--format', 'json', ...args]);
  return { code: r.code, stderr: r.stderr, problems: (JSON.parse(r.stdout) as { problems: Reported[] }).problems };
};

/** Replaces `find` in the file at `path`; fails when the content no longer has it (the case would test nothing). */
const edit = (path: string, find: string, replace: string) => {
  const text = readFileSync(path, 'utf8');
  if (!text.includes(find)) throw new Error(`The edit no longer applies: ${JSON.stringify(find)} is not in ${path}.`);
  writeFileSync(path, text.replace(find, replace));
};

/** A broken course file: YAML that cannot be read (a colon in a text without quotes). */
const breakVocal = (dir: string) => {
  const path = join(dir, 'courses/vocal.yaml');
  edit(path, '  en: Singing lessons\n', '  en: Note: bring shoes\n');
};

describe('content i18n never loses a confirmation', () => {
  it('a file it cannot read is an error that fails the run, also without --strict', async () => {
    const copy = contentCopy();
    try {
      breakVocal(copy.dir);
      const r = await run('i18n', copy.dir);
      expect(r.code).toBe(1);
      expect(r.problems.find((p) => p.severity === 'error')).toMatchObject({ file: 'courses/vocal.yaml', code: 'yaml-colon-in-text' });
    } finally {
      copy.cleanup();
    }
  });

  it('--confirm writes nothing while a file cannot be read (the confirmations of its texts stay)', async () => {
    const copy = contentCopy();
    try {
      breakVocal(copy.dir);
      const before = readFileSync(join(copy.dir, 'translations.yaml'));
      const r = await run('i18n', copy.dir, '--confirm');
      expect(r.code).toBe(1);
      expect(r.problems.map((p) => p.code)).toContain('not-confirmed');
      expect(readFileSync(join(copy.dir, 'translations.yaml'))).toEqual(before);
      expect(readFileSync(join(copy.dir, 'translations.yaml'), 'utf8')).toContain('courses/vocal.yaml#title');
    } finally {
      copy.cleanup();
    }
  });

  it('a hand edit of the glossary that breaks its shape: an error in both commands at its line, not a crash', async () => {
    const copy = contentCopy();
    try {
      const path = join(copy.dir, 'translations.yaml');
      // `not` written as one text instead of a list
      edit(path, '      not:\n        - unit\n', '      not: unit\n');
      const before = readFileSync(path);
      const i18n = await run('i18n', copy.dir, '--confirm');
      expect(i18n.code).toBe(1);
      expect(i18n.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
      expect(i18n.problems.find((p) => p.code === 'wrong-type')).toMatchObject({ file: 'translations.yaml', severity: 'error', line: 12 });
      expect(i18n.problems.map((p) => p.code)).toContain('not-confirmed');
      expect(readFileSync(path)).toEqual(before);
      const validate = await run('validate', copy.dir);
      expect(validate.code).toBe(1);
      expect(validate.problems.filter((p) => p.severity === 'error')).toMatchObject([{ file: 'translations.yaml', code: 'wrong-type', line: 12 }]);
    } finally {
      copy.cleanup();
    }
  });

  it('broken YAML in translations.yaml: validate names it, i18n fails with exit 1 (not 70)', async () => {
    const copy = contentCopy();
    try {
      const path = join(copy.dir, 'translations.yaml');
      edit(path, '  - ru: занятие, урок\n', '  – ru: занятие, урок\n');
      const validate = await run('validate', copy.dir);
      expect(validate.problems.filter((p) => p.severity === 'error')).toMatchObject([{ file: 'translations.yaml', code: 'yaml-bad-dash', line: 9 }]);
      expect((await run('i18n', copy.dir)).code).toBe(1);
    } finally {
      copy.cleanup();
    }
  });

  it('an empty text is a missing translation in i18n, as validate calls it an error, and is never confirmed', async () => {
    const copy = contentCopy();
    try {
      const path = join(copy.dir, 'courses/vocal.yaml');
      edit(path, '  de: Gesangsunterricht\n', '  de: ""\n');
      const i18n = await run('i18n', copy.dir);
      expect(i18n.problems.find((p) => p.code === 'missing-translation' && p.file === 'courses/vocal.yaml')).toMatchObject({ path: 'title', locale: 'de' });
      const validate = await run('validate', copy.dir);
      expect(validate.problems.find((p) => p.severity === 'error')).toMatchObject({ code: 'empty-text', path: 'title.de' });
    } finally {
      copy.cleanup();
    }
  });
});

describe('translations.yaml is written whole or not at all', () => {
  const disk = tinyDisk();
  it.skipIf(!disk)('on a full disk the old file stays as it was and no temp file is left', () => {
    const d = disk!;
    try {
      const path = join(d.dir, 'translations.yaml');
      const old = '# old\nconfirmed: {}\n';
      writeFileSync(path, old);
      d.fill();
      expect(() => writeWhole(path, `# new\n${'x: 1234567890\n'.repeat(10_000)}`)).toThrow(/ENOSPC/);
      expect(readFileSync(path, 'utf8')).toBe(old);
      expect(readdirSync(d.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      d.cleanup();
    }
  });

  // The whole command, on a disk that holds the content but not a second copy of translations.yaml.
  const fullDisk = tinyDisk('1m');
  const unmounted = fullDisk ? '' : ' (skipped: mounting a tmpfs needs root, which this run does not have)';
  // Both disks also when their tests were left out (-t).
  afterAll(() => {
    disk?.cleanup();
    fullDisk?.cleanup();
  });
  it.skipIf(!fullDisk)(`content i18n --confirm on a full disk: an error naming the file, translations.yaml as it was, no temp file${unmounted}`, async () => {
    const d = fullDisk!;
    try {
      const copy = contentCopy();
      try {
        cpSync(copy.dir, d.dir, { recursive: true });
      } finally {
        copy.cleanup();
      }
      // New teachers, whose texts --confirm adds: the new translations.yaml is longer than the old one, so
      // even written over the old file in place it would not fit (as on main before the fix: cut off mid-line).
      for (const teacher of readdirSync(join(d.dir, 'teachers')))
        for (const copy of ['new', 'newer']) cpSync(join(d.dir, 'teachers', teacher), join(d.dir, `teachers/${copy}-${teacher}`));
      const path = join(d.dir, 'translations.yaml');
      const before = readFileSync(path);
      d.leaveFree(0);

      const full = await run('i18n', d.dir, '--confirm');
      expect(full.code, full.stderr).not.toBe(0);
      expect(full.code, full.stderr).not.toBe(70);
      expect(full.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace
      const error = full.problems.find((p) => p.code === 'lock-not-written');
      expect(error?.file).toBe('translations.yaml');
      expect(error?.message).toBe('The file translations.yaml could not be written (the disk is full); it is left as it was, and nothing was confirmed.');
      expect(error?.hint).toMatch(/Free some disk space/);
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(readdirSync(d.dir).filter((f) => f.includes('.tmp'))).toEqual([]);

      // With room again, the same command confirms: the run above did have something to write.
      d.leaveFree(4 * before.length);
      const roomy = await run('i18n', d.dir, '--confirm');
      expect(roomy.problems.filter((p) => p.code === 'lock-not-written')).toEqual([]);
      expect(readFileSync(path).equals(before)).toBe(false);
    } finally {
      d.cleanup();
    }
  });

  it('replaces the file in one step', () => {
    const copy = contentCopy();
    try {
      const path = join(copy.dir, 'translations.yaml');
      writeWhole(path, 'confirmed: {}\n');
      expect(readFileSync(path, 'utf8')).toBe('confirmed: {}\n');
      expect(readdirSync(copy.dir).filter((f) => f.includes('.tmp'))).toEqual([]);
    } finally {
      copy.cleanup();
    }
  });
});
