import { dangerouslySkipEscape } from 'vike/server';
import type { PageContextServer } from 'vike/types';
import { renderDocument } from '../render.tsx';
import { type BuildPages, buildPageOf } from './pages.ts';
import '../styles.css';

/** Vike's only job here is bundling and writing files: the document comes from renderDocument. */
export function onRenderHtml(pageContext: PageContextServer & Partial<BuildPages>) {
  const page = buildPageOf(pageContext);
  if (!page) throw new Error(`No page model for ${pageContext.urlOriginal}`);
  const html = renderDocument(page);
  pageContext.onPageRendered?.(page.url);
  return dangerouslySkipEscape(html);
}
