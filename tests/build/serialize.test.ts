// biome-ignore-all lint/security/noDangerouslySetInnerHtml: the cases check how it is written
// biome-ignore-all lint/security/noScriptUrl: the cases check that React's blocking of javascript: URLs is ported
import {
  Component,
  createContext,
  Fragment,
  forwardRef,
  createElement as h,
  lazy,
  memo,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type ByReact, serializeToStaticMarkup, serializeToString } from '../../cli/render/html/serialize.ts';
import { InternalError } from '../../cli/report/problem.ts';

// The rules of React's server renderer the serializer ports (cli/render/html), one case each,
// checked against React itself: both renderToString and renderToStaticMarkup must be matched.

/** The serializer's HTML for `node` (the components in `byReact` left to React), after checking it is React's. */
function same(node: ReactNode, byReact?: ByReact): string {
  expect(serializeToStaticMarkup(node, byReact)).toBe(renderToStaticMarkup(node));
  const html = serializeToString(node, byReact);
  expect(html).toBe(renderToString(node));
  return html;
}

const Text = ({ value }: { value: string }) => value;
const Pair = ({ a, b }: { a: ReactNode; b: ReactNode }) => h(Fragment, null, a, b);

let effects = 0;
function Stateful({ start }: { start: string }) {
  const [value] = useState(() => `${start}!`);
  const [count] = useState(3);
  const ref = useRef<string>('r');
  useEffect(() => void effects++, []);
  const twice = useMemo(() => count * 2, [count]);
  const onClick = useCallback(() => effects++, []);
  return h('button', { type: 'button', onClick, 'data-ref': ref.current }, value, twice);
}
/** Text, from state: spliced between other text, it must be separated as in place. */
const StatefulText = ({ text }: { text: string }) => useState(text)[0];
const Hoisting = () => h('title', null, useState('t')[0]);
const Id = () => h('p', { id: useId() });
const WITH_HOOKS: ByReact = new Set([Stateful, StatefulText, Hoisting]);

describe('text', () => {
  it('separates adjacent text nodes with <!-- -->, across components and fragments, but not around elements', () => {
    expect(same(h('p', null, 'a', 'b'))).toBe('<p>a<!-- -->b</p>');
    expect(same(h('p', null, h(Text, { value: 'a' }), h(Pair, { a: 'b', b: h(Fragment, null, 'c') })))).toBe('<p>a<!-- -->b<!-- -->c</p>');
    expect(same(h('p', null, 'a', h('b', null, 'x'), 'c'))).toBe('<p>a<b>x</b>c</p>');
    same(h('p', null, 'a', null, false, true, undefined, 'b'));
    same(h('p', null, 'a', '', 'b', '', ''));
    same(h('p', null, 1, 2n, 'x', [3, ['y', 'z']]));
    same(h('p', null, ['a'], h(Fragment, null, 'b', h('i'), '', 'c')));
  });

  it('writes a lone child of an element without a separator, and text at the root as it is', () => {
    same(['a', 'b', h('br', { key: 'br' }), 'c', h(Text, { key: 't', value: 'd' })]);
    same(h('p', null, 5));
    same(h(Fragment, null, 'x'));
    same('root text');
    same(null);
  });

  it('escapes & < > " \' in text and in attributes, and nothing else', () => {
    const tricky = `Tom & "Jerry" <b>it's</b> 😀 Ünï > &amp;`;
    expect(same(h('p', { title: tricky, 'data-x': tricky }, tricky))).toBe(
      '<p title="Tom &amp; &quot;Jerry&quot; &lt;b&gt;it&#x27;s&lt;/b&gt; 😀 Ünï &gt; &amp;amp;" data-x="Tom &amp; &quot;Jerry&quot; &lt;b&gt;it&#x27;s&lt;/b&gt; 😀 Ünï &gt; &amp;amp;">Tom &amp; &quot;Jerry&quot; &lt;b&gt;it&#x27;s&lt;/b&gt; 😀 Ünï &gt; &amp;amp;</p>',
    );
    same(h('a', { href: 'https://x.example/?a=1&b=<2>' }, tricky, tricky));
  });
});

describe('attributes', () => {
  it('renames, keeps or drops props as React does', () => {
    same(h('label', { className: 'c', htmlFor: 'f', tabIndex: -1, hrefLang: 'de', charSet: 'utf-8', autoComplete: 'off', maxLength: 5 }));
    same(h('meta', { httpEquiv: 'refresh', content: '0; url=/', itemProp: 'x' }));
    same(h('div', { onClick: () => 1, onchange: 'x', on: 'kept', ref: { current: null }, key: 'k', suppressHydrationWarning: true, innerHTML: 'x' }));
    same(h('div', { title: () => 1, id: Symbol('s') as never, lang: undefined, dir: null }));
    same(h('div', { 'bad name': 'x', 'a"b': 'y', ok: 'z' }));
    same(h('div', { strokeWidth: 2, fontSize: '1em', xlinkHref: '#a', xmlLang: 'en', acceptCharset: 'utf-8', crossOrigin: 'anonymous' }));
  });

  it('writes booleans as React does: empty attributes, "true"/"false" for aria-* and data-*, dropped elsewhere', () => {
    same(h('fieldset', { required: true, disabled: false, hidden: true, readOnly: 0, autoFocus: true, multiple: false }));
    same(h('div', { 'aria-invalid': false, 'aria-hidden': true, 'data-on': true, 'data-off': false, custom: true, title: false }));
    same(h('a', { download: true }, 'x'));
    same(h('a', { download: 'file.txt', capture: false }, 'x'));
    same(h('div', { contentEditable: true, spellCheck: false, draggable: 'true', className: true }));
  });

  it('drops href="" but on <a>, blocks javascript: URLs, and checks numbers', () => {
    same(h('div', null, h('a', { href: '' }, 'self'), h('link', { rel: 'x', href: '' }), h('area', { href: '' })));
    same(h('a', { href: ' javascript:alert(1)' }, 'x'));
    same(h('div', { action: 'JaVa\tScRiPt:alert(1)', formAction: 'javascript:x' }));
    same(h('div', { rows: 0, cols: 'x', readOnly: true }));
    same(h('div', { rows: 4, cols: '10' }));
    same(h('ol', { start: 0 }, h('li', null)));
    same(h('td', { rowSpan: 'x', colSpan: 2 }));
  });

  it('writes style objects: kebab case, px for numbers, custom properties as written', () => {
    same(
      h('div', {
        style: {
          marginTop: 4,
          lineHeight: 1.5,
          opacity: 0,
          WebkitLineClamp: 2,
          msFlex: 1,
          '--my-var': ' 3 ',
          color: '',
          display: null,
          backgroundImage: 'url("<x>")',
        },
      }),
    );
    same(h('div', { style: {} }));
  });
});

describe('elements', () => {
  it('writes void elements self-closed and dangerouslySetInnerHTML as given', () => {
    same(h('div', null, h('br'), h('hr', { className: 'x' }), h('wbr')));
    same(h('div', { dangerouslySetInnerHTML: { __html: '<b>raw</b> & "as is"' } }));
    same(h('script', { type: 'application/ld+json', dangerouslySetInnerHTML: { __html: '{"a":"</script>"}' } }));
    same(h('script', null, 'let a = "</script><script>";'));
    same(h('div', { dangerouslySetInnerHTML: { __html: null } }));
  });

  it('hoists <title>, <meta> and <link> into the document head, charset and viewport first', () => {
    const head = h(
      'head',
      { lang: 'en' },
      h('meta', { name: 'description', content: 'd' }),
      h('title', null, 'T & "t"'),
      h('meta', { name: 'viewport', content: 'width=device-width' }),
      h('meta', { charSet: 'utf-8' }),
      h('link', { rel: 'icon', href: '/i.svg' }),
      h('link', { rel: 'stylesheet', href: '/s.css' }),
      h('script', { type: 'application/ld+json', dangerouslySetInnerHTML: { __html: '{}' } }),
      h('meta', { itemProp: 'name', content: 'in place' }),
      h('title', null, ['one']),
    );
    same(head);
    same(
      h('div', null, 'text', h('meta', { name: 'x', content: 'y' }), 'more', h('link', { rel: 'next', href: '/2' }), 'and', h('title', null, 'title'), 'end'),
    );
  });

  it('leaves components with hooks to React, spliced in place: initial state, no effects, text separated as in place', () => {
    same(h('div', null, h(Stateful, { start: 'go' }), h(Stateful, { start: '&' })), WITH_HOOKS);
    expect(
      same(h('p', null, 'a', h(StatefulText, { text: 'b' }), 'c', h(StatefulText, { text: '' }), h('i'), h(StatefulText, { text: 'd' })), WITH_HOOKS),
    ).toBe('<p>a<!-- -->b<!-- -->c<i></i>d</p>');
    same(h(Fragment, null, h(StatefulText, { text: 'x' }), h(Pair, { a: 'y', b: h(Stateful, { start: 'z' }) })), WITH_HOOKS);
    expect(effects).toBe(0);
  });

  it("refuses to splice a React part where React's own rendering of it would differ", () => {
    const refused = (node: ReactNode, message: string) => expect(() => serializeToString(node, WITH_HOOKS)).toThrow(message);
    refused(h('div', null, h(Hoisting)), 'React writes elsewhere');
    refused(h('table', null, h('tbody', null, h(StatefulText, { text: 'x' }))), 'only into the body');
    refused(h('thead', null, h('tr', null, h(StatefulText, { text: 'x' }))), 'only into the body');
  });
});

const Context = createContext('x');
class Klass extends Component {
  override render() {
    return 'class';
  }
}
describe('what the serializer does not port fails, named', () => {
  const cases: [string, () => ReactNode][] = [
    ['class components', () => h(Klass)],
    ['react.context', () => h(Context.Provider, { value: 'y' }, 'x')],
    ['react.context', () => h(Context, { value: 'y' }, 'x')],
    ['react.suspense', () => h(Suspense, null, 'x')],
    ['react.lazy', () => h(lazy(async () => ({ default: () => 'x' })))],
    ['react.memo', () => h(memo(() => 'x'))],
    ['react.forward_ref', () => h(forwardRef(() => 'x'))],
    // What createPortal returns (react-dom's createPortal wants a DOM container).
    ['react.portal', () => ({ $$typeof: Symbol.for('react.portal'), key: null, children: 'x', containerInfo: null, implementation: null }) as never],
    ['which calls a React hook', () => h(() => useId())],
    ['which calls a React hook', () => h(() => useContext(Context))],
    ['<Stateful>, which calls a React hook', () => h('div', null, h(Stateful, { start: 'not listed' }))],
    ['<svg>', () => h('svg')],
    ['<img>', () => h('img', { src: '/a.png' })],
    ['<my-element>', () => h('my-element')],
    ['<noscript>', () => h('noscript')],
    ['iterables or promises', () => new Set(['a']) as never],
    ['an object as a child', () => ({ a: 1 }) as never],
    ['a function as a child', () => (() => 'x') as never],
    ...['form', 'input', 'button', 'select', 'option', 'textarea'].map((tag): [string, () => ReactNode] => [`<${tag}>`, () => h('div', null, h(tag))]),
  ];
  it.each(cases)('%s', (name, node) => {
    expect(() => serializeToString(node())).toThrow(InternalError);
    expect(() => serializeToString(node())).toThrow(name);
  });

  it('leaves React alone: a component with hooks fails named, then React renders it as ever', () => {
    expect(() => serializeToString(h(Id))).toThrow(InternalError);
    expect(serializeToString(h(Id), new Set([Id]))).toBe(renderToString(h(Id)));
  });
});
