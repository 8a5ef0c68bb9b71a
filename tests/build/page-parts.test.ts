import type { Worker } from 'node:worker_threads';
import { expect, it } from 'vitest';
import { pageKey } from '../../cli/cache/page-key.ts';
import { fromRoot } from '../../cli/paths.ts';
import { takeParts, withPartsNamed } from '../../cli/render/page-parts.ts';
import type { RenderBatch } from '../../cli/render/render-batch.ts';
import { resolveSite } from '../../cli/resolve/resolve.ts';
import { createTranslator } from '../../cli/resolve/translator.ts';
import { validateContent } from '../../cli/validate/validate.ts';

// The parts pages share go to a worker once (cli/render/page-parts.ts): what the worker renders
// must be the pages as resolved, field for field and in the same order (their keys with them).

const validated = validateContent(fromRoot('content'), { today: '2026-11-22', cache: false });
if (!validated.ok) throw new Error('the shipped content does not validate');
const pages = resolveSite(validated.content, createTranslator(validated.content), { today: '2026-11-22' });

const batch = (id: number, of: typeof pages): RenderBatch => ({ id, pages: of, inserts: { head: '', body: '' } as never, templateKey: 't', outDir: '/out' });

it('gives a worker back every page as resolved, sending each shared part to it once', () => {
  const worker = {} as Worker; // stands for a worker: only its identity is used
  const halves = [pages.slice(0, pages.length / 2), pages.slice(pages.length / 2)];
  // What postMessage does to a batch: a structured clone, in a worker that keeps what it was sent.
  const sent = halves.map((half, id) => structuredClone(withPartsNamed(batch(id, half), worker)));
  expect(sent[0]!.parts.length).toBeGreaterThan(0);
  const again = new Set(sent[0]!.parts.map(([part]) => part));
  expect(sent[1]!.parts.filter(([part]) => again.has(part))).toEqual([]);
  const received = sent.flatMap((s) => takeParts(s).pages);
  expect(received).toEqual(pages);
  received.forEach((page, i) => {
    expect(Object.keys(page)).toEqual(Object.keys(pages[i]!));
    expect(Object.keys(page.chrome)).toEqual(Object.keys(pages[i]!.chrome));
    expect(pageKey(page, 't')).toBe(pageKey(pages[i]!, 't'));
  });
  // The chrome of a locale arrives once: the pages of a locale share it again.
  expect(received.filter((p) => p.locale === 'en').every((p, _, en) => p.chrome.ui === en[0]!.chrome.ui)).toBe(true);
});

it('sends another worker the parts it does not have', () => {
  const [one, two] = [{} as Worker, {} as Worker];
  const first = withPartsNamed(batch(0, pages.slice(0, 5)), one);
  const second = withPartsNamed(batch(1, pages.slice(0, 5)), two);
  expect(second.parts.map(([part]) => part)).toEqual(first.parts.map(([part]) => part));
});
