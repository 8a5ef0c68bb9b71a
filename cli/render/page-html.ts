import { type DocumentRenderer, pageDocument } from '../../templates/document.tsx';
import { EnquiryForm } from '../../templates/form/EnquiryForm.tsx';
import type { PageModel } from '../../templates/model.ts';
import { reactRenderer } from '../../templates/render.tsx';
import { UsageError } from '../report/problem.ts';
import { type ByReact, serializeToStaticMarkup, serializeToString } from './html/serialize.ts';

/**
 * Who writes a page's HTML: `serializer`, the build's own (cli/render/html, the bytes React
 * writes, in less time: tests/build/page-html.test.ts compares them on every page), or `react`,
 * React's server renderer, the reference. `content build --renderer vike` is the other
 * reference: the whole build through Vike (cli/render/vike.ts), with React's renderer.
 */
export type HtmlRenderer = 'serializer' | 'react';

/** The templates' components that call hooks (the enquiry form): the serializer leaves them to React. */
const WITH_HOOKS: ByReact = new Set([EnquiryForm]);

const renderers: Record<HtmlRenderer, DocumentRenderer> = {
  serializer: {
    toString: (node) => serializeToString(node, WITH_HOOKS),
    toStaticMarkup: (node) => serializeToStaticMarkup(node, WITH_HOOKS),
  },
  react: reactRenderer,
};

/**
 * The renderer of `content build`: the serializer, unless `STUDIO_HTML_RENDERER=react` asks for
 * React's (to measure one against the other; README, "For developers").
 */
export const BUILD_HTML_RENDERER: HtmlRenderer = chosen(process.env.STUDIO_HTML_RENDERER);

function chosen(name: string | undefined): HtmlRenderer {
  if (!name) return 'serializer';
  if (Object.hasOwn(renderers, name)) return name as HtmlRenderer;
  throw new UsageError(`STUDIO_HTML_RENDERER=${name} names no renderer`, `use ${Object.keys(renderers).join(' or ')}, or leave it unset`);
}

/** The whole document of one page, with the tags of the client bundle `inserts` (cli/render/client-assets.ts). */
export function pageHtml(page: PageModel, inserts?: { head: string; body: string }, renderer: HtmlRenderer = BUILD_HTML_RENDERER): string {
  return pageDocument(page, renderers[renderer], inserts);
}
