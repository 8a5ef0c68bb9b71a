import { createElement, type FunctionComponent, type ReactElement, type ReactNode } from 'react';

/**
 * Renders an element to HTML as React's renderToString does: React's own (render.tsx, for Vike,
 * the dev server and the tests) or the build's serializer (cli/render/html/serialize.ts).
 */
export type HtmlRenderer = (node: ReactElement) => string;

/** The renderer of the document being rendered (set by `withHtmlRenderer`); rendering is synchronous. */
let current: HtmlRenderer | undefined;

/** Runs `render` with `renderer` as the one `sharedHtml` renders parts with. */
export function withHtmlRenderer<T>(renderer: HtmlRenderer, render: () => T): T {
  const previous = current;
  current = renderer;
  try {
    return render();
  } finally {
    current = previous;
  }
}

/**
 * Whether renderings are kept. `STUDIO_SHARED_HTML=each` renders every part anew for each page: the
 * reference the kept renderings are tested (tests/build/page-html.test.ts) and measured against.
 */
let keeping = process.env.STUDIO_SHARED_HTML !== 'each';

/** Keeps renderings of shared parts (the default) or renders each part anew for every page (the reference). */
export function keepSharedHtml(keep: boolean): void {
  keeping = keep;
}

interface Entry {
  renderer: HtmlRenderer;
  component: unknown;
  props: Record<string, unknown>;
  html: string;
}
const rendered = new WeakMap<object, Entry[]>();
/** Renderings kept per anchor object: a part whose other props vary is rendered anew, never reused wrongly. */
const PER_ANCHOR = 8;

const sameProps = (a: Record<string, unknown>, b: Record<string, unknown>) => {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
};

/**
 * `html`, gathered into one piece of memory now. A rendered part is a string of thousands of
 * pieces (the engine joins strings lazily), gathered whenever a page that includes it is
 * written: a part that many pages include is gathered once, here, so that each page copies it
 * whole instead of walking its pieces again. Searching a string gathers it (in V8, for good:
 * the string keeps the gathered form); the result is not needed.
 */
export function gathered(html: string): string {
  html.indexOf('\0');
  return html;
}

/**
 * The HTML of `<Component {...props} />` for a part that many pages share (the footer of a
 * locale, the form of a course), rendered once and reused while every one of its props is the
 * very same value (page models share these objects and are never changed after resolving).
 * The component sees nothing but its props, so they are the whole key by construction: a
 * per-page value shown in the part has to be passed as a prop, and then it is compared too.
 * The caller puts the HTML into the part's own element with dangerouslySetInnerHTML: the
 * bytes are those the renderer writes in place. Each renderer's renderings are kept apart.
 */
export function sharedHtml<P extends object>(Component: (props: P) => ReactNode, props: P): string {
  const renderer = current;
  if (!renderer) throw new Error('sharedHtml: no renderer; render the document inside withHtmlRenderer');
  const own = props as Record<string, unknown>;
  const render = () => renderer(createElement(Component as FunctionComponent<P>, props));
  // The entries hang on an object among the props, so they go when the models go.
  const anchor = Object.values(own).find((v): v is object => typeof v === 'object' && v !== null);
  if (!anchor || !keeping) return render();
  const entries = rendered.get(anchor) ?? [];
  const hit = entries.find((e) => e.renderer === renderer && e.component === Component && sameProps(e.props, own));
  if (hit) return hit.html;
  const html = gathered(render());
  entries.unshift({ renderer, component: Component, props: { ...own }, html });
  entries.length = Math.min(entries.length, PER_ANCHOR);
  rendered.set(anchor, entries);
  return html;
}
