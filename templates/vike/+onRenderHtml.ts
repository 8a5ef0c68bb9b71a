import { dangerouslySkipEscape } from 'vike/server';
import type { PageContextServer } from 'vike/types';
import type { PageModel } from '../model.ts';
import { renderDocument } from '../render.tsx';
import '../styles.css';

/** Vike's only job here is bundling and writing files: the document comes from renderDocument. */
export function onRenderHtml(pageContext: PageContextServer & { page?: PageModel }) {
  if (!pageContext.page) throw new Error(`No page model for ${pageContext.urlOriginal}`);
  const html = renderDocument(pageContext.page);
  ((globalThis as Record<symbol, unknown>)[Symbol.for('studio-site.progress')] as ((url: string) => void) | undefined)?.(pageContext.page.url);
  return dangerouslySkipEscape(html);
}
