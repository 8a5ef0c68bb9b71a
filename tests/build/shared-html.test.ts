import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import { serializeToString } from '../../cli/render/html/serialize.ts';
import { sharedHtml, withHtmlRenderer } from '../../templates/shared-html.ts';

// The footer and the form are rendered once and reused (templates/shared-html.ts). The key is the
// component's props, all of them: a part sees nothing else, so nothing it shows can be left out.

let calls = 0;
const Part = ({ shared, page }: { shared: { label: string }; page: string }) => {
  calls++;
  return createElement('p', null, `${shared.label} ${page}`);
};
const Other = ({ shared }: { shared: { label: string } }) => createElement('div', null, shared.label);

it('reuses a part only while every one of its props is the very same value', () =>
  withHtmlRenderer(renderToString, () => {
    const shared = { label: 'Hours' };
    const a = sharedHtml(Part, { shared, page: '/en/faq' });
    const again = sharedHtml(Part, { shared, page: '/en/faq' });
    const b = sharedHtml(Part, { shared, page: '/en/prices' });
    expect(again).toBe(a);
    expect(calls).toBe(2);
    expect(a).toBe(renderToString(createElement(Part, { shared, page: '/en/faq' })));
    expect(b).toBe(renderToString(createElement(Part, { shared, page: '/en/prices' })));
    // An equal but different object is another key (models are compared by identity, never mutated).
    expect(sharedHtml(Part, { shared: { label: 'Zeiten' }, page: '/en/faq' })).toContain('Zeiten');
    // Another component with the same props is another part.
    expect(sharedHtml(Other, { shared, page: '/en/faq' } as never)).toBe('<div>Hours</div>');
  }));

it("keeps each renderer's renderings apart, and needs one", () => {
  const shared = { label: 'Zeiten' };
  const before = calls;
  withHtmlRenderer(renderToString, () => sharedHtml(Part, { shared, page: '/' }));
  withHtmlRenderer(serializeToString, () => sharedHtml(Part, { shared, page: '/' }));
  expect(calls - before).toBe(2);
  expect(() => sharedHtml(Part, { shared, page: '/' })).toThrow('no renderer');
});
