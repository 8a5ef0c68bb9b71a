import { UsageError } from '../report/problem.ts';

/**
 * Who writes a page's HTML: `serializer`, the build's own (cli/render/html, the bytes React
 * writes, in less time: tests/build/page-html.test.ts compares them on every page), or `react`,
 * React's server renderer, the reference. `content build --renderer vike` is the other
 * reference: the whole build through Vike (cli/render/vike.ts), with React's renderer.
 */
export const HTML_RENDERERS = ['serializer', 'react'] as const;
export type HtmlRenderer = (typeof HTML_RENDERERS)[number];

/**
 * The renderer `content build` asks for: the serializer, unless `STUDIO_HTML_RENDERER=react` asks
 * for React's (to measure one against the other; README, "For developers"). Read by the build's
 * thread before any page is made, so that a wrong name is a usage error there, and handed to the
 * workers with the rest of their setup (build-share.ts). Loads no template.
 */
export function buildHtmlRenderer(name = process.env.STUDIO_HTML_RENDERER): HtmlRenderer {
  if (!name) return 'serializer';
  if ((HTML_RENDERERS as readonly string[]).includes(name)) return name as HtmlRenderer;
  throw new UsageError(`STUDIO_HTML_RENDERER=${name} names no renderer`, `use ${HTML_RENDERERS.join(' or ')}, or leave it unset`);
}
