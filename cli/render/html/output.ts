// What the ported element rules share: where the HTML goes, React's format context, and the
// loop over a host element's props (node_modules/react-dom/cjs/react-dom-server-legacy.node.production.js).
import { attribute } from './attributes.ts';
import { escapeText } from './escape.ts';

export type Props = Record<string, unknown>;

/** Where the HTML goes: the current segment, and the parts React hoists into the document's head. */
export interface Output {
  /** The segment being written (the page, or the children of a <head> rendered at the root). */
  out: string;
  /** Whether the last thing written to `out` was text: adjacent text is separated with <!-- --> (renderToString only). */
  lastPushedText: boolean;
  /** <meta charSet>, then <meta name="viewport">, then the other hoisted <title>, <meta> and <link> elements, in order. */
  charset: string;
  viewport: string;
  hoistable: string;
  /** The start tag of the <head> rendered at the root, if one was. */
  head?: string;
}

/** React's format context, as far as the ported elements read it. */
export interface Context {
  /** React's insertion mode: 0 the root, 2 in the body, 3 in the root <head>, 6-9 in table parts. */
  mode: number;
  /** Inside a <picture> (React's tagScope bit 2): an <img> there is not preloaded. */
  picture?: true;
}

/** Writes the start tag of `type` into `o`; returns the children still to render (null: none). */
export type Start = (o: Output, type: string, props: Props, context: Context) => unknown;

/** What `open` found; one object, reused by every call (read it before the next). */
const opened = { attrs: '', children: null as unknown, innerHTML: null as unknown };

/**
 * A host element's props in order: each written as its attribute unless `own` says otherwise
 * (a string to write instead, '' for nothing); children and dangerouslySetInnerHTML kept apart.
 * Own props only, null and undefined skipped, as React does.
 */
export function open(props: Props, own?: (key: string, value: unknown) => string | undefined): typeof opened {
  let attrs = '';
  let children: unknown = null;
  let innerHTML: unknown = null;
  // As React reads them (for…in, own props only): no array of the keys made for each element.
  for (const key in props) {
    if (!Object.hasOwn(props, key)) continue;
    const value = props[key];
    if (value == null) continue;
    if (key === 'children') children = value;
    else if (key === 'dangerouslySetInnerHTML') innerHTML = value;
    else attrs += own?.(key, value) ?? attribute(key, value);
  }
  opened.attrs = attrs;
  opened.children = children;
  opened.innerHTML = innerHTML;
  return opened;
}

/** pushInnerHTML: the HTML of dangerouslySetInnerHTML, as given. */
export function innerHtml(innerHTML: unknown, children: unknown): string {
  if (innerHTML == null) return '';
  if (children != null) throw new Error('Can only set one of `children` or `props.dangerouslySetInnerHTML`.');
  if (typeof innerHTML !== 'object' || !('__html' in innerHTML)) throw new Error('`props.dangerouslySetInnerHTML` must be in the form `{__html: ...}`.');
  const html = innerHTML.__html;
  return html == null ? '' : `${html}`;
}

/** pushStartGenericElement's ending (also <a>, <button>, <form>): a string child is written right away, as text that needs no separator. */
export function withText(o: Output, tag: string, attrs: string, children: unknown, innerHTML: unknown): unknown {
  o.out += innerHTML == null ? `<${tag}${attrs}>` : `<${tag}${attrs}>${innerHtml(innerHTML, children)}`;
  if (typeof children !== 'string') return children;
  o.out += escapeText(children);
  return null;
}

/** pushSelfClosing: a void element. */
export function selfClosing(tag: string, props: Props): string {
  const { attrs, children, innerHTML } = open(props);
  if (children != null || innerHTML != null)
    throw new Error(`${tag} is a self-closing tag and must neither have \`children\` nor use \`dangerouslySetInnerHTML\`.`);
  return `<${tag}${attrs}/>`;
}
