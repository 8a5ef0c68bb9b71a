// <head>, <title>, <meta>, <link> and <script>: React 19 hoists the first four into the
// document's head (pushStartInstance's cases for them, flushCompletedQueues for the order).
import { InternalError } from '../../report/problem.ts';
import { escapeText } from './escape.ts';
import { innerHtml, open, type Props, type Start, selfClosing, withText } from './output.ts';

/** A <head> at the root is the document's: its start tag is kept apart, and its children are rendered as its own segment (serialize.ts). */
const head: Start = (o, tag, props, context) => {
  if (context.mode >= 2) {
    const { attrs, children, innerHTML } = open(props);
    return withText(o, tag, attrs, children, innerHTML);
  }
  if (o.head !== undefined) throw new Error('The `<head>` tag may only be rendered once.');
  const { attrs, children, innerHTML } = open(props);
  o.head = `<head${attrs}>${innerHtml(innerHTML, children)}`;
  return children;
};

/** pushTitleImpl: one text child, written as it is; React would write an element as "[object Object]", which is refused here. */
function titleTag(props: Props): string {
  const { attrs, children, innerHTML } = open(props);
  const child = Array.isArray(children) ? (children.length < 2 ? children[0] : null) : children;
  if (child != null && (typeof child === 'object' || typeof child === 'function'))
    throw new InternalError('the HTML serializer writes only text in a <title> (React would write an element there as [object Object])');
  const text = child == null || typeof child === 'symbol' ? '' : escapeText(child);
  return `<title${attrs}>${text}${innerHtml(innerHTML, children)}</title>`;
}

/** Hoisted unless it has an itemProp (then it belongs to its item). Unlike <meta> and <link>, no separator after text. */
const title: Start = (o, _tag, props) => {
  if (props.itemProp != null) o.out += titleTag(props);
  else o.hoistable += titleTag(props);
  return null;
};

/** Hoisted (charset first, then viewport, then the others) unless it has an itemProp; text just before it is then closed with <!-- -->. */
const meta: Start = (o, tag, props) => {
  if (props.itemProp != null) {
    o.out += selfClosing(tag, props);
    return null;
  }
  if (o.lastPushedText) o.out += '<!-- -->';
  if (typeof props.charSet === 'string') o.charset += selfClosing(tag, props);
  else if (props.name === 'viewport') o.viewport += selfClosing(tag, props);
  else o.hoistable += selfClosing(tag, props);
  return null;
};

/** Hoisted when it has a rel and an href and no load handlers; a stylesheet with a precedence is a resource React orders itself (not ported). */
const link: Start = (o, tag, props) => {
  const { rel, href } = props;
  const inPlace =
    props.itemProp != null ||
    typeof rel !== 'string' ||
    typeof href !== 'string' ||
    href === '' ||
    (rel === 'stylesheet' && (typeof props.precedence !== 'string' || props.disabled != null)) ||
    Boolean(props.onLoad || props.onError);
  if (inPlace) {
    o.out += selfClosing(tag, props);
    return null;
  }
  if (rel === 'stylesheet') throw new InternalError('the HTML serializer does not support <link rel="stylesheet" precedence> (a resource React orders itself)');
  if (o.lastPushedText) o.out += '<!-- -->';
  o.hoistable += selfClosing(tag, props);
  return null;
};

const SCRIPT_END = /(<\/|<)(s)(cript)/gi;

/** pushScriptImpl, in place; an async script with a src is a resource React hoists itself (not ported). */
const script: Start = (o, tag, props) => {
  const { src, async } = props;
  if (
    typeof src === 'string' &&
    src &&
    async &&
    typeof async !== 'function' &&
    typeof async !== 'symbol' &&
    !props.onLoad &&
    !props.onError &&
    props.itemProp == null
  )
    throw new InternalError('the HTML serializer does not support <script async src> (a resource React hoists itself)');
  const { attrs, children, innerHTML } = open(props);
  const text =
    typeof children === 'string' ? children.replace(SCRIPT_END, (_, prefix, s, suffix) => `${prefix}${s === 's' ? '\\u0073' : '\\u0053'}${suffix}`) : '';
  o.out += `<${tag}${attrs}>${innerHtml(innerHTML, children)}${text}</${tag}>`;
  return null;
};

export const headElements: Record<string, Start> = { head, title, meta, link, script };
