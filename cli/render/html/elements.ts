// Host elements: which rule writes each one's start tag, the context its children see, and
// whether it has an end tag (pushStartInstance, getChildFormatContext and renderElement in
// node_modules/react-dom/cjs/react-dom-server-legacy.node.production.js).
import { InternalError } from '../../report/problem.ts';
import { headElements } from './head-elements.ts';
import { type Context, open, type Start, selfClosing, withText } from './output.ts';

const generic: Start = (o, tag, props) => {
  const { attrs, children, innerHTML } = open(props);
  return withText(o, tag, attrs, children, innerHTML);
};

/** An empty href is written on <a> (a link to the page itself); other elements drop it. */
const anchor: Start = (o, tag, props) => {
  const { attrs, children, innerHTML } = open(props, (key, value) => (key === 'href' && value === '' ? ' href=""' : undefined));
  return withText(o, tag, attrs, children, innerHTML);
};

const VOID = ['area', 'base', 'br', 'col', 'embed', 'hr', 'keygen', 'param', 'source', 'track', 'wbr'];
const voidElement: Start = (o, tag, props) => {
  o.out += selfClosing(tag, props);
  return null;
};

/**
 * pushStartInstance's "img": written as it is inside a <picture> (the source the browser picks is
 * not known, so React preloads nothing), and where React would not preload it either (lazy, low
 * priority, no src). An image React preloads (a <link rel="preload"> hoisted into the head) is not ported.
 */
const img: Start = (o, tag, props, context) => {
  const { src, srcSet, loading, fetchPriority } = props;
  if (!context.picture && loading !== 'lazy' && fetchPriority !== 'low' && (src || srcSet))
    throw new InternalError(
      'the HTML serializer does not support an <img> React preloads (outside <picture>, not lazy); render it with React, or port pushImg',
    );
  o.out += selfClosing(tag, props);
  return null;
};

/**
 * Elements React writes by rules not ported here: they change how their content is written
 * (svg, math, noscript), add resources to the head (style), are the document itself (html, body),
 * or are form controls, which only the enquiry form has (rendered by React: cli/render/page-html.ts);
 * custom elements have their own attribute rules.
 */
const UNSUPPORTED = [
  ...['html', 'body', 'svg', 'math', 'foreignObject', 'noscript', 'style', 'pre', 'listing', 'object', 'menuitem'],
  ...['form', 'input', 'button', 'select', 'option', 'textarea'],
];

const starts = new Map<string, Start>([['a', anchor], ['img', img], ...VOID.map((tag) => [tag, voidElement] as const), ...Object.entries(headElements)]);

const VALID_TAG = /^[a-zA-Z][a-zA-Z:_.\-\d]*$/;

/** No end tag: void elements, and those whose start rule writes the whole element. */
const NO_END = new Set([
  'title',
  'style',
  'script',
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** The insertion mode a tag gives its children, for those that set one (getChildFormatContext). */
const modes = new Map([
  ['table', 6],
  ['thead', 7],
  ['tbody', 7],
  ['tfoot', 7],
  ['colgroup', 9],
  ['tr', 8],
]);

/** What the serializer needs to know of a tag, looked up once per tag. */
export interface Tag {
  start: Start;
  /** Its end tag ('' for none); the document's <head> has none in its segment (see `endTag`). */
  end: string;
  /** The insertion mode it gives its children, if it sets one. */
  mode?: number;
  /** Whether its children see its own context, wherever that is not the root or a table part (most tags). */
  ordinary: boolean;
}
const tags = new Map<string, Tag>();

/** How `tag` is written; fails for a tag React refuses or whose rules are not ported. */
export function tagOf(tag: string): Tag {
  let info = tags.get(tag);
  if (info) return info;
  if (!VALID_TAG.test(tag)) throw new Error(`Invalid tag: ${tag}`);
  if (UNSUPPORTED.includes(tag) || tag.includes('-'))
    throw new InternalError(`the HTML serializer does not support <${tag}>; render it with React (renderToString), or port React's rules for it`);
  const mode = modes.get(tag);
  info = {
    start: starts.get(tag) ?? generic,
    end: NO_END.has(tag) ? '' : `</${tag}>`,
    mode,
    ordinary: mode === undefined && tag !== 'head',
  };
  tags.set(tag, info);
  return info;
}

const IN_BODY: Context = { mode: 2 };

const IN_PICTURE: Context = { mode: 2, picture: true };

/** getChildFormatContext: the context of `tag`'s children. A <picture>'s scope is kept by every context below it. */
export function childContext(parent: Context, tag: string, info: Tag): Context {
  if (tag === 'picture') return IN_PICTURE;
  const inner = ownContext(parent, tag, info);
  return parent.picture && !inner.picture ? { ...inner, picture: true } : inner;
}

function ownContext(parent: Context, tag: string, info: Tag): Context {
  if (info.ordinary && parent.mode >= 2 && parent.mode < 6) return parent;
  if (info.mode !== undefined) return { mode: info.mode };
  if (tag === 'head' && parent.mode < 2) return { mode: 3 };
  return parent.mode >= 6 || parent.mode < 2 ? IN_BODY : parent;
}
