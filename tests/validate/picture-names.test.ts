import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentCopy, FIXTURE, runCli } from '../helpers/cli.ts';

/** A copy of the frozen content whose vocal course shows `images/<file>` (an empty file of that name). */
async function validateWithPicture(file: string) {
  const course = readFileSync(join(FIXTURE, 'courses/vocal.yaml'), 'utf8').replace('\ntitle:', `\nimage:\n  file: ${file}\n  decorative: true\ntitle:`);
  const copy = contentCopy({ 'courses/vocal.yaml': course, [`images/${file}`]: 'x' });
  try {
    const r = await runCli(['validate', '--content', copy.dir, '--format', 'json']);
    const report = JSON.parse(r.stdout) as { problems: { code: string; severity: string; file: string; line: number; message: string; hint: string }[] };
    return report.problems.filter((p) => p.file === 'courses/vocal.yaml' && p.severity !== 'warning');
  } finally {
    copy.cleanup();
  }
}

describe('a picture named by a format the site does not show', () => {
  it.each([
    ['photo.heic', 'HEIC photo', 'Most Compatible'],
    ['Photo.HEIF', 'HEIC photo', 'JPEG'],
    ['logo.svg', 'SVG drawing', 'PNG, at least'],
    ['flyer.pdf', 'PDF document', 'Export the page as a picture'],
    ['scan.tiff', 'TIFF', 'JPEG'],
  ])('%s is named as what it is, with what to export instead, at its line', async (file, what, todo) => {
    const [problem, ...more] = await validateWithPicture(file);
    expect(more).toEqual([]);
    expect(problem?.code).toBe('image-unsupported');
    expect(problem?.message).toContain(what);
    expect(problem?.hint).toContain(todo);
    expect(problem?.line).toBe(readFileSync(join(FIXTURE, 'courses/vocal.yaml'), 'utf8').split('\n').indexOf('title:') + 2); // the line of `file:`
  });

  it('a name that is only written wrong is still said so', async () => {
    const [problem] = await validateWithPicture('Vocal Lesson.jpg');
    expect(problem?.code).toBe('bad-format');
  });
});
