import type { Worker } from 'node:worker_threads';
import type { PageModel } from '../../templates/model.ts';
import type { RenderBatch } from './render-batch.ts';

/**
 * Parts of the page model that many pages share as one object: the chrome of a locale but for
 * its language switcher, the form with one preselection, the alternates of a route (the same in
 * each locale). A batch of pages is copied into a worker whole, these parts with each batch
 * again (a fifth of what a cold build sends, and of what a worker decodes); instead each is
 * sent to a worker once, with the first batch that has it, and named by its number after that.
 * The worker puts them back where they were, so the pages it renders are the ones resolved,
 * field for field and in the same order (their keys are the same).
 */
const PAGE_PARTS = ['form', 'hreflang'] as const;
const CHROME_PARTS = ['ui', 'menu', 'contacts', 'hours', 'footerLinks'] as const;

/** A shared part, in a page sent to a worker. */
interface PartRef {
  part: number;
}

/** A batch as sent to a worker: its pages with their shared parts named (`PartRef`), and the parts this worker did not have yet. */
export interface SentBatch extends Omit<RenderBatch, 'pages'> {
  pages: object[];
  parts: [number, object][];
}

// Numbered for the process, not for one build: a worker that served another queue still knows its parts by their numbers.
const partNumbers = new WeakMap<object, number>();
let nextPart = 0;
const sentTo = new WeakMap<Worker, Set<number>>();

/** `batch` as sent to `worker` (`takeParts` in the worker gives back its pages). */
export function withPartsNamed(batch: RenderBatch, worker: Worker): SentBatch {
  const known = sentTo.get(worker) ?? new Set<number>();
  sentTo.set(worker, known);
  const parts: [number, object][] = [];
  const name = (value: object | undefined): PartRef | undefined => {
    if (value === undefined) return undefined;
    const part = partNumbers.get(value) ?? nextPart++;
    partNumbers.set(value, part);
    if (!known.has(part)) {
      known.add(part);
      parts.push([part, value]);
    }
    return { part };
  };
  // Fields written over keep their place: the page's fields stay in their order.
  const pages = batch.pages.map((page) => {
    const chrome: Record<string, unknown> = { ...page.chrome };
    for (const field of CHROME_PARTS) chrome[field] = name(page.chrome[field]);
    const sent: Record<string, unknown> = { ...page, chrome };
    for (const field of PAGE_PARTS) sent[field] = name(page[field]);
    return sent;
  });
  return { ...batch, pages, parts };
}

/** In a worker: the parts it was sent, by number. */
const received = new Map<number, object>();

/** In a worker: the batch `withPartsNamed` sent, its pages made whole again (in place). */
export function takeParts(sent: SentBatch): RenderBatch {
  for (const [part, value] of sent.parts) received.set(part, value);
  const take = (ref: unknown) => (ref === undefined ? undefined : received.get((ref as PartRef).part));
  for (const page of sent.pages as Record<string, unknown>[]) {
    const chrome = page.chrome as Record<string, unknown>;
    for (const field of CHROME_PARTS) chrome[field] = take(chrome[field]);
    for (const field of PAGE_PARTS) page[field] = take(page[field]);
  }
  const { parts: _parts, ...batch } = sent;
  return { ...batch, pages: sent.pages as PageModel[] };
}
