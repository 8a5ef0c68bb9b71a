import type { PageModel } from '../model.ts';
import { T } from '../Text.tsx';

/** Where the form leads after posting without JavaScript. */
export function Thanks({ page }: { page: PageModel }) {
  const { ui } = page.chrome;
  return (
    <>
      <T value={ui['form.thanksTitle']} as="h1" />
      {/* The same words as the form's confirmation when it is sent with JavaScript. */}
      <T value={ui['form.success']} as="p" />
      <p>
        <a className="button" href={page.chrome.homeHref}>
          <T value={ui['form.backHome']} />
        </a>
      </p>
    </>
  );
}
