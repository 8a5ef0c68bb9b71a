import { renderToStaticMarkup, renderToString } from 'react-dom/server';
import { type DocumentRenderer, pageDocument } from './document.tsx';
import type { PageModel } from './model.ts';

/** React's own server renderer: the reference the build's serializer is tested against (cli/render/page-html.ts). */
export const reactRenderer: DocumentRenderer = { toString: renderToString, toStaticMarkup: renderToStaticMarkup };

/** The whole document of one page, rendered by React (Vike's renderer, the dev server). */
export const renderDocument = (page: PageModel, inserts?: { head: string; body: string }): string => pageDocument(page, reactRenderer, inserts);
