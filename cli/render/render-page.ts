import { type DocumentRenderer, pageDocument } from '../../templates/document.tsx';
import type { PageModel } from '../../templates/model.ts';
import type { ClientAssets } from './client-assets.ts';
import { serializeToStaticMarkup, serializeToString } from './html/serialize.ts';

/** The pages' HTML, written by the serializer: the bytes React's server renderer writes, in a fraction of its time (tests/build/serialize-pages.test.ts). */
const serializer: DocumentRenderer = { toString: serializeToString, toStaticMarkup: serializeToStaticMarkup };

/**
 * A page's HTML, with the client bundle's tags of its group (a page with the form gets its
 * script). Pure: the caller writes it. The only module of the build that loads the templates.
 */
export function renderPage(page: PageModel, inserts: ClientAssets['inserts']): string {
  return pageDocument(page, serializer, page.form ? inserts.form : inserts.static);
}
