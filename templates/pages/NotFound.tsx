import type { PageBody, PageModel } from '../model.ts';
import { T } from '../Text.tsx';

/** The 404 page: it sends the visitor on to the home page of their locale (document.tsx adds the refresh). */
export function NotFound({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'notFound' }> }) {
  const { ui } = page.chrome;
  return (
    <>
      <T value={ui['notFound.title']} as="h1" />
      <T value={ui['notFound.text']} as="p" />
      <p>
        <a href={body.homeHref}>
          <T value={ui['notFound.redirecting']} />
        </a>
      </p>
    </>
  );
}
