import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../cli/locales.ts';
import { absoluteUrl, localeLink, localeOfUrl, localeUrl, urlToFile } from '../../cli/resolve/urls.ts';

describe('the trailing-slash policy', () => {
  it('puts Russian at the root and every other locale under /<locale>, with no trailing slash but the root', () => {
    expect(LOCALES.map((l) => localeUrl('/', l))).toEqual(['/', '/en', '/de']);
    expect(LOCALES.map((l) => localeUrl('/vocal', l))).toEqual(['/vocal', '/en/vocal', '/de/vocal']);
  });

  it('writes /x to x.html and the root to index.html', () => {
    expect(['/', '/en', '/vocal', '/de/vocal'].map(urlToFile)).toEqual(['index.html', 'en.html', 'vocal.html', 'de/vocal.html']);
  });

  it('keeps the section of a content link and puts it after the locale', () => {
    expect(localeLink('/#enquiry', 'ru')).toBe('/#enquiry');
    expect(localeLink('/#enquiry', 'en')).toBe('/en#enquiry');
    expect(localeLink('/prises', 'de')).toBe('/de/prises');
    expect(localeLink('/prises#vocal', 'de')).toBe('/de/prises#vocal');
  });

  it('finds the locale of a URL by its first segment; anything else is Russian', () => {
    expect(['/', '/vocal', '/en', '/en/vocal', '/de/404', '/fr/vocal', '/english'].map((u) => localeOfUrl(u, LOCALES))).toEqual([
      'ru',
      'ru',
      'en',
      'en',
      'de',
      'ru',
      'ru',
    ]);
    expect(localeOfUrl('/de/vocal', ['ru', 'en'])).toBe('ru');
  });

  it('joins a base URL with or without its trailing slash', () => {
    expect(absoluteUrl('https://studio.example', '/en')).toBe('https://studio.example/en');
    expect(absoluteUrl('https://studio.example/', '/')).toBe('https://studio.example/');
  });
});
