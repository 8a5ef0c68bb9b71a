// React element trees to HTML, byte for byte as React 19's renderToString and
// renderToStaticMarkup write them, for the constructs the templates use: host elements,
// function components without hooks, fragments, arrays and text. A component that calls hooks
// is rendered by React itself (the caller names it, `ByReact`) and its HTML spliced in. Anything
// else fails with an InternalError naming it, never with other bytes. React stays the reference
// (cli/render/page-html.ts has both); tests/build/serialize.test.ts and page-html.test.ts compare the two.
// Rules from node_modules/react-dom/cjs/react-dom-server-legacy.node.production.js: renderElement,
// retryNode, pushTextInstance, pushSegmentFinale and flushCompletedQueues.
import { Component as ClassComponent, Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { InternalError } from '../../report/problem.ts';
import { childContext, tagOf } from './elements.ts';
import { escapeText } from './escape.ts';
import type { Context, Output, Props } from './output.ts';

const ROOT: Context = { mode: 0 };

type Component = ((props: object, secondArg?: undefined) => unknown) & { displayName?: string };

/** How a component is named in a message. */
const nameOf = (component: Component): string => component.displayName ?? component.name;

/** The components seen to be functions, not classes: checked once each, not on every call. */
const functionComponents = new WeakSet<Component>();

/** The components the serializer leaves to React: those that call hooks (the serializer has none to give them). */
export type ByReact = ReadonlySet<unknown>;

/**
 * What React writes first when it renders a part on its own but elsewhere in place: the elements
 * it hoists into the document's head, and the document's own elements.
 */
const NOT_IN_PLACE = /^<(?:title|meta|link|head|html|body|!DOCTYPE)[\s/>]/i;

class Serializer implements Output {
  out = '';
  lastPushedText = false;
  charset = '';
  viewport = '';
  hoistable = '';
  head?: string;
  /** What the document's <head> contains besides the hoisted elements. */
  private preamble = '';

  constructor(
    private readonly staticMarkup: boolean,
    private readonly byReact: ByReact,
  ) {}

  /** retryNode: text, arrays, elements; null, undefined and booleans are nothing. */
  node(node: unknown, context: Context): void {
    if (typeof node === 'string') this.text(node);
    else if (node == null || typeof node === 'boolean') return;
    else if (typeof node === 'number' || typeof node === 'bigint') this.text(`${node}`);
    else if (Array.isArray(node)) for (let i = 0; i < node.length; i++) this.node(node[i], context);
    else this.element(node, context);
  }

  /** renderElement: host elements, function components, fragments. */
  private element(node: unknown, context: Context): void {
    if (!isValidElement<Props>(node)) throw new InternalError(`the HTML serializer cannot render ${describeNode(node)}`);
    const { type, props } = node;
    if (typeof type === 'string') this.host(type, props, context);
    else if (typeof type === 'function' && this.byReact.has(type)) this.byReactInPlace(node, context);
    else if (typeof type === 'function') this.node(this.call(type as Component, props), context);
    else if (type === Fragment) this.node(props.children, context);
    else throw new InternalError(`the HTML serializer does not support ${describeType(type)}`);
  }

  /** renderWithHooks, for function components that call no hook (outside React's rendering, a hook fails: React's dispatcher is not set). */
  private call(component: Component, props: Props): unknown {
    if (!functionComponents.has(component)) {
      if (component.prototype instanceof ClassComponent)
        throw new InternalError(`the HTML serializer does not support class components (${nameOf(component)})`);
      functionComponents.add(component);
    }
    try {
      return component(props);
    } catch (error) {
      const name = nameOf(component);
      // How React fails a hook called outside its rendering ("Cannot read properties of null (reading 'useState')").
      if (error instanceof TypeError && /\(reading 'use[A-Za-z]*'\)/.test(error.message))
        throw new InternalError(
          `the HTML serializer cannot render <${name}>, which calls a React hook: list it among those React renders (cli/render/page-html.ts)`,
          {
            cause: error,
          },
        );
      throw error;
    }
  }

  /**
   * A component that calls hooks, rendered by React on its own (React sets its own hooks
   * dispatcher; the serializer never touches it) and spliced in: the bytes React writes in place,
   * as long as the part is in the body (not in a <head> or a table part, whose context React
   * would not know here) and hoists nothing into the head. Ids from useId would count from the
   * part's own root: the enquiry form calls no useId, and both renderers render it apart anyway
   * (templates/shared-html.ts).
   */
  private byReactInPlace(element: ReactElement, context: Context): void {
    const name = nameOf(element.type as Component);
    if (context.mode > 2)
      throw new InternalError(`the HTML serializer splices React's rendering of <${name}> only into the body, not into a <head> or a table part`);
    const html = this.staticMarkup ? renderToStaticMarkup(element) : renderToString(element);
    if (html === '') return;
    if (NOT_IN_PLACE.test(html))
      throw new InternalError(
        `the HTML serializer cannot splice <${name}>: it renders an element React writes elsewhere in a whole page (${html.slice(0, 20)}…)`,
      );
    // Text after text is separated, as in pushTextInstance; text never contains a raw < or >.
    if (this.lastPushedText && html[0] !== '<') this.out += '<!-- -->';
    this.out += html;
    this.lastPushedText = !this.staticMarkup && !html.endsWith('>');
  }

  /** pushTextInstance: text next to text is separated by <!-- --> (so hydration finds two text nodes), but for static markup. */
  private text(text: string): void {
    if (this.staticMarkup) this.out += escapeText(text);
    else if (text !== '') {
      this.out += this.lastPushedText ? `<!-- -->${escapeText(text)}` : escapeText(text);
      this.lastPushedText = true;
    }
  }

  private host(tag: string, props: Props, context: Context): void {
    const info = tagOf(tag);
    const children = info.start(this, tag, props, context);
    this.lastPushedText = false;
    const inner = childContext(context, tag, info);
    if (inner.mode !== 3) {
      if (children != null) this.node(children, inner);
      this.out += info.end;
    } else if (tag === 'head' && context.mode < 2) this.headSegment(children, inner);
    else if (children != null)
      throw new InternalError(`the HTML serializer does not support elements as children of <${tag}> in the document's <head> (React 19 leaves them out)`);
    else this.out += info.end;
    this.lastPushedText = false;
  }

  /** The children of the document's <head>, as a segment of their own: written after the hoisted elements. */
  private headSegment(children: unknown, context: Context): void {
    const [out, lastPushedText] = [this.out, this.lastPushedText];
    this.out = '';
    this.lastPushedText = false;
    this.node(children, context);
    this.preamble += this.out;
    [this.out, this.lastPushedText] = [out, lastPushedText];
  }

  /** flushCompletedQueues: the head (its start tag, the hoisted elements, its other children), then the rest. */
  html(): string {
    const head = this.head === undefined ? '' : this.head;
    const end = this.head === undefined ? '' : '</head>';
    return `${head}${this.charset}${this.viewport}${this.hoistable}${this.preamble}${end}${this.out}`;
  }
}

function describeType(type: unknown): string {
  const symbol = typeof type === 'symbol' ? type : (type as { $$typeof?: unknown } | null)?.$$typeof;
  return typeof symbol === 'symbol' ? `${symbol.description} elements` : `elements of type ${String(type)}`;
}

function describeNode(node: unknown): string {
  if (typeof node !== 'object' || node === null) return `a ${typeof node} as a child`;
  const symbol = (node as { $$typeof?: unknown }).$$typeof;
  if (typeof symbol === 'symbol') return `${symbol.description} nodes`;
  if (Symbol.iterator in node || 'then' in node) return 'iterables or promises as children';
  return `an object as a child (keys ${Object.keys(node).join(', ')})`;
}

function serialize(node: ReactNode, staticMarkup: boolean, byReact: ByReact): string {
  const serializer = new Serializer(staticMarkup, byReact);
  serializer.node(node, ROOT);
  return serializer.html();
}

const NONE: ByReact = new Set();

/** What React's renderToString writes for `node`; the components in `byReact` are rendered by React. */
export const serializeToString = (node: ReactNode, byReact = NONE): string => serialize(node, false, byReact);

/** What React's renderToStaticMarkup writes for `node`; the components in `byReact` are rendered by React. */
export const serializeToStaticMarkup = (node: ReactNode, byReact = NONE): string => serialize(node, true, byReact);
