import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { expect, it } from 'vitest';
import type { PageModel } from '../../templates/model.ts';
import { PageContent } from '../../templates/pages/PageContent.tsx';

// TypeScript rejects a kind of page without a component (the switch in PageContent.tsx); a
// model that gets past the types anyway must fail the build, never render an empty page.
it('refuses a kind of page it has no component for instead of rendering nothing', () => {
  const page = { body: { kind: 'gallery' }, chrome: { ui: {} } } as unknown as PageModel;
  expect(() => renderToString(createElement(PageContent, { page }))).toThrow('no component renders pages of kind "gallery"');
});
