import { resolve } from 'node:path';
import type { PageModel } from '../../templates/model.ts';
import type { Content } from '../core/content.ts';
import { type ResolveOptions, resolvePages } from '../site/resolve.ts';
import { isTakenOver, type SitePage } from '../site/site-page.ts';
import type { Translator } from '../site/translator.ts';
import { courseInputKeys } from './input-keys.ts';
import { readPageRecords } from './page-cache.ts';
import type { PreviousPage, Rendered, RenderOptions } from './render-pages.ts';

export interface TakingOver {
  /** Every page, in order: resolved models, and the course pages taken over unresolved. */
  all: SitePage[];
  /** For `renderPages`: the previous site, and how to resolve a page that cannot be taken over after all. */
  render: Pick<RenderOptions, 'previous' | 'resolveTakenOver'>;
  /** Once rendered: records what each page was made from, and counts the fallbacks of the pages taken over. */
  settle(rendered: Rendered[]): void;
}

/**
 * Stage 4 of the fast path: resolves the site, taking over from the previous build into the same
 * directory every course page whose inputs are unchanged (see `resolvePages`, `courseInputKeys`).
 */
export function resolveTakingOver(
  content: Content,
  sources: Map<string, string>,
  tr: Translator,
  options: { out: string; templateKey: string; baseUrl?: string; today: string },
): TakingOver {
  const records = readPageRecords(options.out);
  const inputOf = courseInputKeys(sources, options);
  const resolved = new Map<string, Pick<PreviousPage, 'input' | 'fallbacks'>>();
  const resolveOptions: ResolveOptions = {
    baseUrl: options.baseUrl,
    today: options.today,
    onResolved: (p, fallbacks) =>
      resolved.set(p.file, {
        input: p.body.kind === 'course' ? inputOf({ locale: p.locale, route: p.route, course: p.body.course.key }) : undefined,
        fallbacks: fallbacks.size ? [...fallbacks] : undefined,
      }),
  };
  const all = resolvePages(content, tr, {
    ...resolveOptions,
    takeOver: records && ((p) => records[p.file]?.input !== undefined && records[p.file]!.input === inputOf(p)),
  });
  return {
    all,
    render: {
      previous: records && { dir: resolve(options.out), pages: records },
      resolveTakenOver: (files) =>
        resolvePages(content, tr, { ...resolveOptions, takeOver: (p) => !files.has(p.file) }).filter(
          (p): p is PageModel => !isTakenOver(p) && files.has(p.file),
        ),
    },
    settle(rendered) {
      const localeOf = new Map(all.map((p) => [p.file, p.locale]));
      for (const r of rendered) {
        const now = resolved.get(r.file);
        if (now) Object.assign(r, now);
        else for (const id of r.fallbacks ?? []) tr.fallbacks[localeOf.get(r.file)!].add(id);
      }
    },
  };
}
