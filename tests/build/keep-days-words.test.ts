import { describe, expect, it } from 'vitest';
import { resolveSite } from '../../cli/resolve/resolve.ts';
import { createTranslator } from '../../cli/resolve/translator.ts';
import type { Content } from '../../cli/validate/content.ts';
import { validateContent } from '../../cli/validate/validate.ts';
import { CONTENT } from '../helpers/cli.ts';

/**
 * The privacy page states how long enquiries are kept: the number the server applies (site.yaml
 * form.keepDays) with its word for days, which must agree with the number. Russian has three
 * forms where English and German have two: "через 1 день", "через 3 дня", "через 5 дней",
 * "через 21 день", "через 365 дней"; a text that wrote "{{keepDays}} дней" was right for 180 only.
 */
const TODAY = '2025-01-01';

function privacyText(keepDays: number, edit: (content: Content) => void = () => {}): Record<'ru' | 'en' | 'de', string> {
  const v = validateContent(CONTENT, { today: TODAY });
  expect(v.ok).toBe(true);
  const content: Content = v.content;
  content.site!.data.form.keepDays = keepDays;
  edit(content);
  const pages = resolveSite(content, createTranslator(content), { today: TODAY });
  const text = (url: string) => {
    const page = pages.find((p) => p.url === url)!;
    if (page.body.kind !== 'legal') throw new Error(`${url} is not a legal page`);
    return page.body.sections.flatMap((s) => s.body.map((b) => b.text)).join('\n');
  };
  return { ru: text('/privacy'), en: text('/en/privacy'), de: text('/de/privacy') };
}

describe('the retention period on the privacy page', () => {
  const CASES: [number, string, string, string][] = [
    [1, 'через 1 день после', '1 day after', '1 Tag nach'],
    [3, 'через 3 дня после', '3 days after', '3 Tage nach'],
    [5, 'через 5 дней после', '5 days after', '5 Tage nach'],
    [21, 'через 21 день после', '21 days after', '21 Tage nach'],
    [365, 'через 365 дней после', '365 days after', '365 Tage nach'],
  ];

  it.each(CASES)('keepDays %i: the word for days agrees with the number, in every locale', (days, ru, en, de) => {
    const said = privacyText(days);
    expect(said.ru).toContain(`Заявки автоматически удаляются с сервера ${ru} поступления`);
    expect(said.en).toContain(`deleted from the server automatically ${en} they arrive`);
    expect(said.de).toContain(`Anfragen werden ${de} ihrem Eingang`);
    for (const text of Object.values(said)) expect(text).not.toMatch(/\{\{|дней дней|days days|Tage Tage/);
  });

  it('fills {{ keepDays }} written with spaces inside the braces, as i18next reads it and validate lets it pass', () => {
    const said = privacyText(5, (content) => {
      for (const section of content.legal!.data.privacy.sections)
        for (const text of section.body) Object.assign(text, JSON.parse(JSON.stringify(text).replaceAll('{{keepDays}}', '{{ keepDays }}')));
    });
    expect(said.ru).toContain('Заявки автоматически удаляются с сервера через 5 дней после поступления');
    expect(said.de).toContain('Anfragen werden 5 Tage nach ihrem Eingang');
    for (const text of Object.values(said)) expect(text).not.toContain('{{');
  });
});
