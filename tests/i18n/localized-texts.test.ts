import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectTranslatable, NEVER_SHOWN } from '../../cli/i18n/check.ts';
import { loadContent } from '../../cli/load/load.ts';
import { isLocalized, localizedTexts } from '../../cli/texts/localized-texts.ts';
import { FIXTURE } from '../helpers/cli.ts';

describe('the walk over localized texts', () => {
  it('names each text file#path, in file order, without descending into a text', () => {
    const data = { title: { ru: 'Вокал', en: 'Vocal' }, features: [{ ru: 'а' }, { ru: 'б', de: 'b' }], order: 3, nested: { deep: [[{ ru: 'в' }]] } };
    expect(localizedTexts('courses/vocal.yaml', data).map((t) => t.key)).toEqual([
      'courses/vocal.yaml#title',
      'courses/vocal.yaml#features[0]',
      'courses/vocal.yaml#features[1]',
      'courses/vocal.yaml#nested.deep[0][0]',
    ]);
  });

  it('names each text by its identity: an entry by its id, path, key or value, [*] where it has none', () => {
    const data = {
      routes: [{ path: '/faq', title: { ru: 'Вопросы' } }],
      items: [
        { id: 'trial', question: { ru: 'Можно?' }, answer: [{ ru: 'Да.' }] },
        { id: 'trial', question: { ru: 'Повтор id' } },
        { id: 'a b]', question: { ru: 'Странный id' } },
      ],
      options: [{ value: 'chess', label: { ru: 'Шахматы' } }],
      rules: [{ ru: 'Правило' }],
      steps: [{ title: { ru: 'Шаг' } }],
    };
    expect(localizedTexts('x.yaml', data).map((t) => [t.identity, t.byText])).toEqual([
      ['x.yaml#routes[path=/faq].title', false],
      ['x.yaml#items[id=trial].question', false],
      ['x.yaml#items[id=trial].answer[*]', true],
      // A repeated id (an error validate reports) names only the first entry.
      ['x.yaml#items[*].question', true],
      ['x.yaml#items[id="a b]"].question', false],
      ['x.yaml#options[value=chess].label', false],
      ['x.yaml#rules[*]', true],
      ['x.yaml#steps[*].title', true],
    ]);
  });

  it('counts a map of locales without its Russian text (to report it), but not other maps', () => {
    expect(isLocalized({ en: 'Vocal' })).toBe(true);
    expect(isLocalized({})).toBe(false);
    expect(isLocalized({ ru: 'Вокал', fr: 'Chant' })).toBe(false);
    expect(isLocalized({ ru: 'Вокал', en: { use: 'x' } })).toBe(false);
    expect(isLocalized(['ru'])).toBe(false);
  });

  it('finds every text the (frozen) translations.yaml has confirmed, under the key it is stored by', () => {
    const lock = parse(readFileSync(join(FIXTURE, 'translations.yaml'), 'utf8')) as { confirmed: Record<string, Record<string, string>> };
    const keys = new Set(collectTranslatable(loadContent(FIXTURE).files).map((t) => t.key));
    for (const [locale, confirmed] of Object.entries(lock.confirmed)) {
      const stored = Object.keys(confirmed);
      expect(stored.length, locale).toBeGreaterThan(100);
      expect(
        stored.filter((k) => !keys.has(k) && !NEVER_SHOWN.has(k)),
        locale,
      ).toEqual([]);
    }
  });
});
