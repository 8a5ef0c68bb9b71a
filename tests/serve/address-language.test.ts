// Issue 36, section 2: show/erase compare addresses by case alone (never a different letter),
// and Accept-Language is read as RFC 9110 says (weights, q=0, whole tags).
import { describe, expect, it } from 'vitest';
import { acceptedLocale } from '../../cli/serve/http/enquiry.ts';
import { foldAddress } from '../../cli/serve/store/enquiry-record.ts';

describe('foldAddress', () => {
  it('makes upper and lower case alike, and nothing else', () => {
    expect(foldAddress('Anna.K@Example.ORG')).toBe('anna.k@example.org');
    expect(foldAddress('ÄRGER@Über.DE')).toBe('ärger@über.de');
    expect(foldAddress('ПЕТРОВ@почта.РФ')).toBe('петров@почта.рф');
    // The Kelvin sign is not the letter k, the dotted capital I not i, the capital sharp s not ss.
    expect(foldAddress('\u212Aarl@example.org')).not.toBe(foldAddress('karl@example.org'));
    expect(foldAddress('\u0130van@example.org')).not.toBe(foldAddress('ivan@example.org'));
    expect(foldAddress('STRA\u1E9EE@example.org')).not.toBe(foldAddress('strasse@example.org'));
    expect(foldAddress('\u212Aarl@example.org')).toBe('\u212Aarl@example.org');
  });
});

describe('acceptedLocale', () => {
  const ours = ['ru', 'en', 'de'] as const;
  it('takes the highest weight, then the order given', () => {
    expect(acceptedLocale('de-DE,de;q=0.9,en;q=0.8', ours)).toBe('de');
    expect(acceptedLocale('fr;q=1, en;q=0.5, de;q=0.7', ours)).toBe('de');
    expect(acceptedLocale('en, de', ours)).toBe('en');
  });
  it('never answers in a language weighted q=0, and reads whole primary tags only', () => {
    expect(acceptedLocale('de;q=0, en;q=0.1', ours)).toBe('en');
    expect(acceptedLocale('de;q=0', ours)).toBeUndefined();
    expect(acceptedLocale('english, deutsch, rus', ours)).toBeUndefined();
    expect(acceptedLocale('de-AT', ours)).toBe('de');
    expect(acceptedLocale('*', ours)).toBeUndefined();
    expect(acceptedLocale('en;q=nonsense, ru;q=0.2', ours)).toBe('ru');
  });
});
