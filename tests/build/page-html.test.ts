import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import type { HtmlRenderer } from '../../cli/render/html-renderer.ts';
import { pageHtml } from '../../cli/render/page-html.ts';
import { resolveSite } from '../../cli/resolve/resolve.ts';
import { createTranslator } from '../../cli/resolve/translator.ts';
import { validateContent } from '../../cli/validate/validate.ts';
import type { PageModel } from '../../templates/model.ts';
import { keepSharedHtml } from '../../templates/shared-html.ts';
import { CONTENT, FIXTURE } from '../helpers/cli.ts';
import { type Rng, seeded } from '../helpers/random.ts';

// The build writes its pages with its own serializer (cli/render/html), React's server renderer
// stays the reference, one option away (cli/render/page-html.ts): every page of the shipped
// content, of a generated 300-page site, and of models changed at random (texts with every
// character HTML escapes, emoji, emphasis, empty texts and lists, Russian fallbacks) must come
// out of both byte for byte, the enquiry form (rendered by React inside the serializer's pages) included.

const TODAY = '2026-11-22';
const INSERTS = { head: '<link rel="stylesheet" href="/assets/s.css">', body: '<script type="module" src="/assets/f.js"></script>' };

function pagesOf(dir: string): PageModel[] {
  const validated = validateContent(dir, { today: TODAY });
  if (!validated.ok) throw new Error(`${dir} does not validate`);
  return resolveSite(validated.content, createTranslator(validated.content), { today: TODAY });
}

const synthetic = mkdtempSync(join(tmpdir(), 'studio-serialize-'));
afterAll(() => rmSync(synthetic, { recursive: true, force: true }));
// 90 courses: 300 pages.
writeSyntheticContent(synthetic, 90);

const TEXTS = [
  'Tom & Jerry',
  '<b>not bold</b>',
  'say "hi"',
  "it's",
  '😀 🎵 emoji',
  '**bold** and *italic*',
  '',
  ' ',
  'a > b < c',
  '&amp; &#x27;',
  'line\nbreak',
  'Ünïcødé ß',
];

/** A copy of `model` with texts, languages and lists changed at random (the shapes stay valid). */
function vary(model: unknown, rng: Rng): unknown {
  if (Array.isArray(model)) return rng.next() < 0.15 ? [] : model.map((v) => vary(v, rng));
  if (typeof model !== 'object' || model === null) return model;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(model)) out[key] = vary(value, rng);
  // A Text ({ text, lang? }): other text, and sometimes marked as the Russian fallback.
  if (typeof out.text === 'string') {
    if (rng.next() < 0.5) out.text = `${rng.pick(TEXTS)}${rng.pick(TEXTS)}`;
    if (rng.next() < 0.3) out.lang = rng.next() < 0.5 ? 'ru' : undefined;
  }
  return out;
}

/** Both renderings of a page, or what each threw. */
function both(page: PageModel, inserts?: typeof INSERTS) {
  const render = (renderer: HtmlRenderer) => {
    try {
      return pageHtml(page, inserts, renderer);
    } catch (error) {
      return `threw ${(error as Error).message}`;
    }
  };
  return { react: render('react'), serializer: render('serializer') };
}

describe('the serializer writes every page as React does', () => {
  const shipped = pagesOf(CONTENT);
  const frozen = pagesOf(FIXTURE);
  const generated = pagesOf(synthetic);

  it.each([
    ['the shipped content', shipped],
    ['the frozen fixture content', frozen],
    ['a generated 300-page site', generated],
  ])('%s', (_name, pages) => {
    const kinds = new Set(pages.map((p) => p.body.kind));
    expect([...kinds].sort()).toEqual(['course', 'faq', 'home', 'legal', 'notFound', 'prices', 'schedule', 'teachers', 'thanks']);
    for (const [i, page] of pages.entries()) {
      const { react, serializer } = both(page, i % 2 ? INSERTS : undefined);
      expect(react).not.toMatch(/^threw/);
      expect(serializer, page.file).toBe(react);
    }
    expect(pages.filter((p) => p.form).length).toBeGreaterThan(0);
  });

  it('has 300 pages in the generated site', () => expect(generated).toHaveLength(300));

  it('models changed at random', () => {
    const rng = seeded(13);
    let rendered = 0;
    for (const page of [...frozen, ...generated.slice(0, 120)]) {
      for (let n = 0; n < 2; n++) {
        const { react, serializer } = both(vary(page, rng) as PageModel);
        expect(serializer, page.file).toBe(react);
        if (!react.startsWith('threw')) rendered++;
      }
    }
    // Changed models that a template cannot render (an emptied list it needs) fail in both; most render.
    expect(rendered).toBeGreaterThan(400);
  });
});

describe('the parts many pages share (footer, menu, form: templates/shared-html.ts)', () => {
  it('are the same bytes rendered once and kept as rendered anew for every page (STUDIO_SHARED_HTML=each)', () => {
    const pages = [...pagesOf(CONTENT), ...pagesOf(synthetic)];
    const kept = pages.map((page) => pageHtml(page, INSERTS));
    keepSharedHtml(false);
    try {
      pages.forEach((page, i) => {
        expect(pageHtml(page, INSERTS), page.file).toBe(kept[i]);
      });
    } finally {
      keepSharedHtml(true);
    }
  });
});
