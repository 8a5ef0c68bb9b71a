import { describe, expect, it } from 'vitest';
import { FIXTURE, runCli } from '../helpers/cli.ts';

const TODAY = ['--today', '2026-11-22'];

interface Reported {
  code: string;
  file: string;
  path?: string;
  message: string;
  where?: string;
}

/** The problems validate reports on the frozen copy of the shipped content. */
async function problems(): Promise<Reported[]> {
  const { stdout } = await runCli(['validate', '--content', FIXTURE, '--format', 'json', ...TODAY]);
  return (JSON.parse(stdout) as { problems: Reported[] }).problems;
}

describe('placeholders told truthfully (issue 38)', () => {
  it('names the pages each placeholder is shown on, and says of those no page shows that no page shows them', async () => {
    const all = (await problems()).filter((p) => p.code === 'placeholder');
    // Concentration has no route (no page, no card); no page renders site.yaml legalName.
    const nowhere = all.filter((p) => p.file === 'courses/concentration.yaml' || (p.file === 'site.yaml' && p.path === 'legalName'));
    expect(nowhere).toHaveLength(11);
    for (const p of nowhere) {
      expect(p.where, `${p.file} ${p.path}`).toBeUndefined();
      expect(p.message).toMatch(/\(shown on no page\)\.$/);
    }
    const shown = all.filter((p) => !nowhere.includes(p));
    expect(shown.filter((p) => p.where === undefined)).toEqual([]);
    expect(new Set(shown.filter((p) => p.file === 'courses/vocal.yaml').map((p) => p.where))).toEqual(
      new Set(['/vocal', '/vocal and its card on the home page']),
    );
    expect(shown.find((p) => p.file === 'legal.yaml' && p.path?.startsWith('privacy'))?.where).toBe('the privacy page');
    expect(shown.find((p) => p.file.startsWith('teachers/'))?.where).toBe('/teachers');
  });

  it('lists the placeholders no page shows apart from those visitors read', async () => {
    const { stdout } = await runCli(['validate', '--content', FIXTURE, ...TODAY]);
    const [read, unread] = stdout.split('Placeholders shown on no page');
    expect(read).not.toContain('concentration.yaml');
    expect(read).toMatch(/courses\/vocal\.yaml +6 — .* · on \/vocal and its card on the home page/);
    expect(unread).toMatch(/courses\/concentration\.yaml +10 — summary/);
    expect(unread).toMatch(/site\.yaml +1 — legalName/);
  });

  it('warns about a course page that shows no price at all, and not about a course without a page', async () => {
    const without = (await problems()).filter((p) => p.code === 'course-without-price');
    expect(without.map((p) => p.file)).toEqual(['courses/logorhythmics.yaml']);
    expect(without[0]!.message).toContain('"logorhythmics" shows no price');
  });
});
