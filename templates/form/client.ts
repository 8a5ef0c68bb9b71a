// The first script of a page with the form: tiny, no React. It loads the form's React part on
// demand with a time-out; if that fails, the visitor sees a message with phone and e-mail and
// the plain HTML form keeps working (it posts without JavaScript). It also makes the sign-up
// buttons of courses without a page of their own choose their course in the form, and closes
// the folded menu after a link into this page.
import type { FormProps } from './props.ts';

// The folded (phone) menu is a <details>: a link to a part of this very page (the home page's
// "Contacts") scrolls there, and the menu, open above, would stay in the way. Links to other
// pages load them, with the menu closed.
document.addEventListener('click', (event) => {
  const link = (event.target as Element | null)?.closest?.('details.menu-toggle a[href]') as HTMLAnchorElement | null;
  if (link?.hash && link.pathname === location.pathname && link.origin === location.origin) link.closest('details')?.removeAttribute('open');
});

const root = document.querySelector('[data-enquiry-form]');
const propsElement = document.getElementById('enquiry-props');

if (root && propsElement) {
  // A sign-up button names its course (`data-course`): choosing it is what a visitor would do,
  // so the island, hydrated or not yet, takes it like any other choice (a change event).
  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[data-course]');
    const select = root.querySelector<HTMLSelectElement>('select[name="course"]');
    const course = link?.getAttribute('data-course');
    if (!select || !course || ![...select.options].some((o) => o.value === course)) return;
    select.value = course;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });

  const showFallback = () => document.querySelector('[data-enquiry-fallback]')?.removeAttribute('hidden');
  const props = JSON.parse(propsElement.textContent ?? '{}') as FormProps;
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), props.scriptTimeoutMs));
  Promise.race([import('./island.tsx'), timeout])
    .then((island) => island.hydrate(root, props, showFallback))
    .catch(showFallback);
}
