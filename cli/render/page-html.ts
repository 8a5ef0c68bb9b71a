import { type DocumentRenderer, pageDocument } from '../../templates/document.tsx';
import { EnquiryForm } from '../../templates/form/EnquiryForm.tsx';
import type { PageModel } from '../../templates/model.ts';
import { reactRenderer } from '../../templates/render.tsx';
import { type ByReact, serializeToStaticMarkup, serializeToString } from './html/serialize.ts';
import type { HtmlRenderer } from './html-renderer.ts';

/** The templates' components that call hooks (the enquiry form): the serializer leaves them to React. */
const WITH_HOOKS: ByReact = new Set([EnquiryForm]);

const renderers: Record<HtmlRenderer, DocumentRenderer> = {
  serializer: {
    toString: (node) => serializeToString(node, WITH_HOOKS),
    toStaticMarkup: (node) => serializeToStaticMarkup(node, WITH_HOOKS),
  },
  react: reactRenderer,
};

/** The whole document of one page, with the tags of the client bundle `inserts` (cli/render/client-assets.ts). */
export function pageHtml(page: PageModel, inserts?: { head: string; body: string }, renderer: HtmlRenderer = 'serializer'): string {
  return pageDocument(page, renderers[renderer], inserts);
}
