import type { ReactElement } from 'react';
import { CSP } from './csp.ts';
import { Layout } from './Layout.tsx';
import type { PageModel } from './model.ts';
import { PageContent } from './pages/PageContent.tsx';
import { jsonLdScript } from './script-json.ts';
import { gathered, type HtmlRenderer, withHtmlRenderer } from './shared-html.ts';

/** What every page's head starts with, the same on every page: rendered once per renderer (`headStart`). */
function HeadStart() {
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta httpEquiv="Content-Security-Policy" content={CSP} />
    </head>
  );
}

/**
 * A text as the head carries it: without soft hyphens. They let a long word break on a narrow
 * screen (the German "Teilnahme­bedingungen"), but a browser tab, a search result or a link preview
 * shows them, or counts them, as they are.
 */
const unbroken = (text: string) => text.replaceAll('\u00AD', '');

/** The rest of a page's head, after `HeadStart`. */
function Head({ page }: { page: PageModel }) {
  const title = unbroken(page.title.text);
  return (
    <head>
      <title>{`${title} · ${page.chrome.siteName}`}</title>
      <meta name="description" content={page.description.text} />
      <link rel="icon" href="/favicon.ico" sizes="32x32" />
      <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      {page.noindex ? <meta name="robots" content="noindex" /> : null}
      {page.canonical ? <link rel="canonical" href={page.canonical} /> : null}
      {page.hreflang.map((h) => (
        <link key={h.hreflang} rel="alternate" hrefLang={h.hreflang} href={h.href} />
      ))}
      <meta property="og:type" content="website" />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={page.description.text} />
      {page.og.url ? <meta property="og:url" content={page.og.url} /> : null}
      <meta property="og:site_name" content={page.og.siteName} />
      <meta property="og:locale" content={page.og.locale} />
      {page.og.image ? (
        <>
          <meta property="og:image" content={page.og.image.url} />
          <meta property="og:image:width" content={String(page.og.image.width)} />
          <meta property="og:image:height" content={String(page.og.image.height)} />
          <meta property="og:image:alt" content={unbroken(page.og.image.alt)} />
        </>
      ) : null}
      <meta name="twitter:card" content={page.og.image ? 'summary_large_image' : 'summary'} />
      {/* The not-found page goes home after a few seconds, unless the visitor stays (templates/public/not-found.js). */}
      {page.body.kind === 'notFound' ? <script src="/not-found.js" defer /> : null}
      {page.jsonLd.length ? (
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON-LD data, `<` escaped
        <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonLdScript(page.jsonLd) }} />
      ) : null}
    </head>
  );
}

/** How a document is rendered: React's server renderer (render.tsx) or the build's serializer, which writes the same bytes. */
export interface DocumentRenderer {
  /** As renderToString: the body, whose form is hydrated. */
  toString: HtmlRenderer;
  /** As renderToStaticMarkup: the head. */
  toStaticMarkup: (node: ReactElement) => string;
}

const HEAD_START = '<head>';
const HEAD_END = '</head>';
const headStarts = new WeakMap<DocumentRenderer['toStaticMarkup'], string>();

/**
 * The HTML of `HeadStart`'s elements, rendered once per renderer. Written before the rest of the
 * head, they come out as in a head rendered whole: the renderer writes the charset, then the
 * viewport, then the other elements it hoists in order, then the rest (`Head` has neither of the
 * first two, and these hoisted elements come first).
 */
function headStart(render: DocumentRenderer['toStaticMarkup']): string {
  let html = headStarts.get(render);
  if (html === undefined) {
    html = gathered(render(<HeadStart />).slice(HEAD_START.length, -HEAD_END.length));
    headStarts.set(render, html);
  }
  return html;
}

/**
 * The whole document of one page. The body is rendered as by renderToString so that the form
 * can be hydrated; everything else is static. Deterministic: same model, same bytes.
 */
export function pageDocument(page: PageModel, render: DocumentRenderer, inserts?: { head: string; body: string }): string {
  // What the bundler adds (stylesheet, script) comes first, when the build puts it in itself: see cli/render/client-assets.ts.
  const head = `${HEAD_START}${inserts?.head ?? ''}${headStart(render.toStaticMarkup)}${render.toStaticMarkup(<Head page={page} />).slice(HEAD_START.length)}`;
  const body = withHtmlRenderer(render.toString, () =>
    render.toString(
      <Layout chrome={page.chrome} url={page.url}>
        <PageContent page={page} />
      </Layout>,
    ),
  );
  return `<!DOCTYPE html><html lang="${page.locale}">${head}<body><div id="app">${body}</div>${inserts?.body ?? ''}</body></html>`;
}
