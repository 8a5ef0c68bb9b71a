import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPair, isScalar, parseDocument, visit } from 'yaml';
import { UI_KEYS } from '../../cli/schema/ui-keys.ts';
import { walk } from '../../cli/util/walk.ts';
import { CONTENT, copyCompiler, runCopiedCli } from '../helpers/cli.ts';

// Issue #39: a language is one line of cli/locales.ts plus its texts. A copy of the compiler
// gets Ukrainian in that one line and nothing else; a copy of the shipped content gets only the texts
// that must exist in every language (alt texts, placeholders) and one real Ukrainian text. Every page
// must then exist in Ukrainian too, say so, link its other languages, and mark each text that fell
// back to Russian as the en and de pages do.

const UK_LINE = "  uk: { name: 'Ukrainian', endonym: 'Українська', ogLocale: 'uk_UA', numbers: 'uk' },\n";
/** The one Ukrainian text the content supplies (ui.yaml nav.skipToContent, on every page): shown as it is, unmarked. */
const UK_SKIP = 'Перейти до змісту';

const work = mkdtempSync(join(tmpdir(), 'studio-fourth-locale-'));
const project = join(work, 'compiler');
const content = join(work, 'content');
const out = join(work, 'dist');

/** Adds Ukrainian to the compiler copy's list of locales: the line after German's. */
function addLocale(): void {
  const file = join(project, 'cli/locales.ts');
  const text = readFileSync(file, 'utf8');
  const german = /^ {2}de: \{.*\n/m.exec(text);
  if (!german) throw new Error('cli/locales.ts has no line for German to add Ukrainian after');
  const at = german.index + german[0].length;
  writeFileSync(file, text.slice(0, at) + UK_LINE + text.slice(at));
}

/**
 * The texts a new language must have before anything builds: each alt text (a screen reader reads it
 * in the page's language) and each placeholder written in every language. The English ones stand in:
 * this test is about where texts go, not about the words.
 */
function supplyRequiredTexts(): void {
  for (const path of [...walk(content)].filter((p) => p.endsWith('.yaml')).map((p) => join(content, p))) {
    const doc = parseDocument(readFileSync(path, 'utf8'));
    let changed = false;
    visit(doc, {
      Map(_, map, path) {
        const parent = path.at(-1);
        const alt = isPair(parent) && isScalar(parent.key) && parent.key.value === 'alt';
        const ru = map.get('ru');
        if ((alt || (typeof ru === 'string' && ru.startsWith('TODO:'))) && map.has('en') && !map.has('uk')) {
          map.set('uk', map.get('en'));
          changed = true;
        }
      },
    });
    if (relative(content, path) === 'ui.yaml') {
      (doc.getIn(['nav', 'skipToContent']) as { set(k: string, v: string): void }).set('uk', UK_SKIP);
      changed = true;
    }
    if (changed) writeFileSync(path, doc.toString({ lineWidth: 0 }));
  }
}

const pages = (dir: string) => [...walk(dir)].filter((p) => p.endsWith('.html'));
const html = (page: string) => readFileSync(join(out, page), 'utf8');

let build: { code: number; out: string };
beforeAll(async () => {
  copyCompiler(project);
  addLocale();
  cpSync(CONTENT, content, { recursive: true });
  supplyRequiredTexts();
  build = await runCopiedCli(project, ['build', '--content', content, '--out', out, '--today', '2026-11-22', '--quiet'], { STUDIO_NO_BUNDLE: '1' });
}, 900_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('a fourth locale added in one line of cli/locales.ts', () => {
  it('builds', () => {
    expect(build.code, build.out).toBe(0);
  });

  it('has every page in Ukrainian too, under /uk', () => {
    const all = pages(out);
    const inLocale = (l: string) =>
      all
        .filter((p) => p.startsWith(`${l}/`) || p === `${l}.html`)
        .map((p) => (p === `${l}.html` ? 'index.html' : p.slice(l.length + 1)))
        .sort();
    expect(inLocale('en').length).toBeGreaterThan(20);
    expect(inLocale('uk')).toEqual(inLocale('en'));
    expect(readdirSync(out)).toContain('uk');
  });

  it('marks each Ukrainian page as Ukrainian, links its other languages, and names Ukrainian in every switcher', () => {
    for (const page of ['uk.html', 'uk/vocal.html', 'uk/prises.html']) {
      const h = html(page);
      expect(h, page).toContain('<html lang="uk">');
      expect(h, page).toContain('<meta property="og:locale" content="uk_UA"');
      for (const l of ['ru', 'en', 'de', 'uk', 'x-default'])
        expect(h, `${page}: hreflang ${l}`).toMatch(new RegExp(`<link rel="alternate" hrefLang="${l}" href="[^"]+"`, 'i'));
    }
    expect(html('uk/vocal.html')).toMatch(/<link rel="alternate" hrefLang="uk" href="https:\/\/[^"]+\/uk\/vocal"/i);
    for (const page of ['index.html', 'en/vocal.html', 'de/prises.html']) {
      expect(html(page), page).toMatch(/<link rel="alternate" hrefLang="uk"/i);
      expect(html(page), page).toContain('Українська');
    }
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain('/uk/vocal');
  });

  it('shows the Russian text where the Ukrainian one is missing, marked lang="ru", and the Ukrainian one unmarked', () => {
    const h = html('uk/vocal.html');
    const russian = [...h.matchAll(/<(\w+)[^>]*\blang="ru"[^>]*>([^<]*)/g)].filter(([, tag]) => tag !== 'a');
    expect(russian.length).toBeGreaterThan(5);
    for (const [, , text] of russian) if (text!.trim()) expect(text, 'a text marked Russian is Russian').toMatch(/[а-яё]/i);
    // The English page of the same route marks its fallbacks the same way (there are fewer: en is translated).
    expect(html('en/vocal.html')).not.toMatch(/<(?!a\b)\w+[^>]*\blang="ru"/);
    const skip = new RegExp(`<[^>]+>${UK_SKIP}<`).exec(h);
    expect(skip?.[0]).toBeDefined();
    expect(skip![0]).not.toContain('lang="ru"');
    expect(h).not.toContain('Перейти к содержимому');
  });

  it("gives the server the new locale's messages, in Russian where Ukrainian ones are missing (not in English)", () => {
    const manifest = JSON.parse(readFileSync(join(out, '.studio/enquiry.json'), 'utf8'));
    expect(manifest.locales).toEqual(['ru', 'en', 'de', 'uk']);
    expect(manifest.thanks.uk).toBe('/uk/thanks');
    for (const key of ['errorConflict', 'errorUnstorable', 'errorRequired', 'failure']) {
      expect(manifest.messages.uk[key], key).toBe(manifest.messages.ru[key]);
      expect(manifest.messages.uk[key], key).not.toBe(manifest.messages.en[key]);
    }
  });

  it('reports the Ukrainian translations as missing, beside English and German', async () => {
    const report = await runCopiedCli(project, ['i18n', '--content', content, '--format', 'json'], { STUDIO_NO_BUNDLE: '1' });
    const locales = JSON.parse(report.out).locales as Record<string, { total: number; missing: number }>;
    expect(Object.keys(locales)).toEqual(['en', 'de', 'uk']);
    // Ukrainian has the few and many plural forms English lacks (Intl.PluralRules): those texts count too.
    const fewMany = Object.values(UI_KEYS)
      .flat()
      .filter((k) => /_(few|many)$/.test(k)).length;
    expect(fewMany).toBeGreaterThan(0);
    expect(locales.uk!.total).toBe(locales.en!.total + fewMany);
    expect(locales.uk!.missing).toBeGreaterThan(100);
  }, 300_000);
});
