import { describe, expect, it } from 'vitest';
import { carryOver, confirmTexts, statusesOf } from '../../cli/i18n/confirmations.ts';
import { sourceHash, type TranslationLock } from '../../cli/i18n/translation-lock.ts';
import { localizedTexts } from '../../cli/texts/localized-texts.ts';

const lockWith = (confirmed: TranslationLock['confirmed']): TranslationLock => ({ sameInAllLanguages: [], glossary: [], confirmed });
const rule = (ru: string, en: string) => ({ ru, en });
const statuses = (data: unknown, lock: TranslationLock) => {
  const texts = localizedTexts('c.yaml', data);
  const of = statusesOf(texts, lock);
  return texts.map((t) => `${t.value.ru}: ${of(t, 'en')}`);
};

describe('confirmations of texts known by their Russian text', () => {
  const confirmed = () => {
    const texts = localizedTexts('c.yaml', { rules: [rule('Первое', 'First'), rule('Второе', 'Second')] });
    return confirmTexts(lockWith({}), texts, { locales: ['en'] }).lock;
  };

  it('keeps a moved one confirmed, calls an edited one stale, a new one unconfirmed', () => {
    const lock = confirmed();
    expect(lock.confirmed.en).toEqual({ 'c.yaml#rules[*]': { [sourceHash('Первое')]: sourceHash('First'), [sourceHash('Второе')]: sourceHash('Second') } });
    expect(statuses({ rules: [rule('Второе', 'Second'), rule('Первое', 'First')] }, lock)).toEqual(['Второе: confirmed', 'Первое: confirmed']);
    expect(statuses({ rules: [rule('Первое!', 'First'), rule('Второе', 'Second')] }, lock)).toEqual(['Первое!: stale', 'Второе: confirmed']);
    expect(statuses({ rules: [rule('Новое', 'New'), rule('Первое', 'First'), rule('Второе', 'Second')] }, lock)).toEqual([
      'Новое: unconfirmed',
      'Первое: confirmed',
      'Второе: confirmed',
    ]);
    // A new text whose translation is one still in use beside it is new, not an edit of that one.
    expect(statuses({ rules: [rule('Первое', 'First'), rule('Второе', 'Second'), rule('Третье', 'Second')] }, lock)[2]).toBe('Третье: unconfirmed');
  });

  it('confirming the edited one supersedes what it was confirmed as; the others stay', () => {
    const edited = localizedTexts('c.yaml', { rules: [rule('Первое!', 'First'), rule('Второе', 'Second')] });
    const lock = confirmTexts(confirmed(), edited, { locales: ['en'], only: new Set([edited[0]!]) }).lock;
    expect(lock.confirmed.en!['c.yaml#rules[*]']).toEqual({ [sourceHash('Первое!')]: sourceHash('First'), [sourceHash('Второе')]: sourceHash('Second') });
  });
});

describe('carrying over a translations.yaml by position', () => {
  const data = { title: rule('Заголовок', 'Title'), items: [{ id: 'a', q: rule('Вопрос', 'Question') }], rules: [rule('Правило', 'Rule')] };
  const texts = localizedTexts('c.yaml', data);

  it('passes each confirmation to the identity of the text at its position, stale ones staying stale; a key by identity beside it wins', () => {
    const { lock, carried } = carryOver(
      lockWith({
        en: {
          'c.yaml#title': sourceHash('Заголовок'),
          'c.yaml#items[0].q': sourceHash('Старый вопрос'),
          'c.yaml#rules[0]': sourceHash('Правило'),
          'c.yaml#rules[7]': sourceHash('Удалённое'),
          'c.yaml#items[id=a].q': sourceHash('Вопрос'),
        },
      }),
      texts,
    );
    expect(carried).toBe(3);
    expect(lock.confirmed.en).toEqual({
      'c.yaml#title': sourceHash('Заголовок'),
      'c.yaml#items[id=a].q': sourceHash('Вопрос'),
      'c.yaml#rules[*]': { [sourceHash('Правило')]: sourceHash('Rule') },
    });
    const stale = carryOver(lockWith({ en: { 'c.yaml#items[0].q': sourceHash('Старый вопрос') } }), texts).lock;
    expect(statuses(data, stale)).toEqual(['Заголовок: unconfirmed', 'Вопрос: stale', 'Правило: unconfirmed']);
  });
});
