import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParseMemo } from '../../cli/incremental/parse-memo.ts';
import { validateContent } from '../../cli/validate/validate.ts';
import { contentCopy } from '../helpers/cli.ts';
import { later } from '../helpers/clock.ts';

// {{keepDays}} is filled in with its word for days (ui.yaml legal.days_*, by site.yaml's form.keepDays):
// the check reads three files, so it is found again whichever of them changed, also by `content dev`'s
// memo of what the per-file checks found in files not read again.
const TODAY = '2026-11-22';
const copy = contentCopy();
afterAll(() => copy.cleanup());
const legal = join(copy.dir, 'legal.yaml');
const original = readFileSync(legal, 'utf8');
const PLACEHOLDER = "      en: 'TODO: operator name and address'\n";
const withEnglish = (text: string) => {
  expect(original).toContain(PLACEHOLDER);
  writeFileSync(legal, original.replace(PLACEHOLDER, `      en: '${text}'\n`));
};
const found = (result: ReturnType<typeof validateContent>) =>
  result.problems.filter((p) => p.code === 'days-word-twice').map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`);

describe('days-word-twice', () => {
  it('is found when only legal.yaml changed since the last run of a long-lived process, and gone when it is fixed', async () => {
    const known = new ParseMemo(copy.dir);
    const run = () => later(() => validateContent(copy.dir, { today: TODAY, known }));
    withEnglish('Enquiries are deleted {{keepDays}} after they arrive.');
    expect(found(await run())).toEqual([]);
    expect(found(await run())).toEqual([]); // every file recalled
    withEnglish('Enquiries are deleted {{keepDays}} days after they arrive.');
    expect(found(await run())).toEqual([expect.stringMatching(/^legal\.yaml:\d+:\d+ The English text writes "\{\{keepDays\}\} days": .*"180 days days"\.$/)]);
    // Now ui.yaml alone changes: the English words for days are "Tag" and "Tage" (a mistake of their own), "days" is not one of them.
    const ui = join(copy.dir, 'ui.yaml');
    const uiText = readFileSync(ui, 'utf8');
    writeFileSync(
      ui,
      uiText.replace("    en: '{{count}} day'\n", "    en: '{{count}} Tag'\n").replace("    en: '{{count}} days'\n", "    en: '{{count}} Tage'\n"),
    );
    try {
      expect(found(await run())).toEqual([]);
    } finally {
      writeFileSync(ui, uiText);
    }
    withEnglish('Enquiries are deleted {{keepDays}} after they arrive.');
    expect(found(await run())).toEqual([]);
  });

  it('leaves other words that begin like a word for days alone', () => {
    withEnglish('Enquiries are kept {{keepDays}} daytime hours, then {{keepDays}} daylight.');
    expect(found(validateContent(copy.dir, { today: TODAY }))).toEqual([]);
    writeFileSync(legal, original.replace("      de: 'TODO: Name und Anschrift des Betreibers'\n", "      de: 'Nach {{keepDays}} Tageslicht.'\n"));
    expect(found(validateContent(copy.dir, { today: TODAY }))).toEqual([]);
  });
});
