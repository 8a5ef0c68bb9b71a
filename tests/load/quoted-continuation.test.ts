import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentCopy, FIXTURE, runCli } from '../helpers/cli.ts';

/** validate's problems in courses/vocal.yaml when its English title is written as `title` (the lines after `  en: `). */
async function problemsWithTitle(title: string) {
  const course = readFileSync(join(FIXTURE, 'courses/vocal.yaml'), 'utf8').replace(/^( {2}en: ).*$/m, `$1${title}`);
  const copy = contentCopy({ 'courses/vocal.yaml': course });
  try {
    const r = await runCli(['validate', '--content', copy.dir, '--format', 'json']);
    const report = JSON.parse(r.stdout) as { problems: { code: string; file: string; line: number }[] };
    return report.problems.filter((p) => p.file === 'courses/vocal.yaml' && p.code !== 'placeholder').map((p) => p.code);
  } finally {
    copy.cleanup();
  }
}

describe('a double-quoted text over two lines', () => {
  it('continued on purpose with a backslash (YAML’s escaped line break) is no mistake', async () => {
    expect(await problemsWithTitle('"Singing \\\n    lessons"')).toEqual([]);
  });
  it('without one is still taken for a quote closed too late', async () => {
    expect(await problemsWithTitle('"Singing\n    lessons"')).toEqual(['yaml-unclosed']);
  });
});
