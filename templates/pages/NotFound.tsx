import type { PageBody, PageModel } from '../model.ts';
import { T } from '../Text.tsx';

/**
 * The 404 page: says so in the visitor's language and offers the home page and the courses. Its
 * script (templates/public/not-found.js) shows the notice and a "stay" button and goes home
 * after a few seconds; without it the page stays, with its links.
 */
export function NotFound({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'notFound' }> }) {
  const { ui } = page.chrome;
  return (
    <>
      <T value={ui['notFound.title']} as="h1" />
      <T value={ui['notFound.text']} as="p" className="lead" />
      <ul className="not-found-links">
        <li>
          <a href={body.homeHref}>
            <T value={ui['notFound.redirecting']} />
          </a>
        </li>
        <li>
          <a href={body.coursesHref}>
            <T value={ui['notFound.courses']} />
          </a>
        </li>
      </ul>
      {/* Invisible until the script shows it, but with its space kept: nothing below moves then (no layout shift). */}
      <div data-go-home={body.homeHref} className="go-home">
        <div role="status">
          <T value={ui['notFound.soon']} as="p" />
          <div hidden>
            <T value={ui['notFound.staying']} as="p" />
          </div>
        </div>
        {/* The script makes this text its "stay" button (the serializer writes no <button>; without the script it is not needed). */}
        <p data-stay>
          <T value={ui['notFound.stay']} />
        </p>
      </div>
    </>
  );
}
