// The first script of a page with the form: tiny, no React. It loads the form's React part on
// demand with a time-out; if that fails, the visitor sees a message with phone and e-mail and
// the plain HTML form keeps working (it posts without JavaScript).
import type { FormProps } from './props.ts';

const root = document.querySelector('[data-enquiry-form]');
const propsElement = document.getElementById('enquiry-props');

if (root && propsElement) {
  const props = JSON.parse(propsElement.textContent ?? '{}') as FormProps;
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), props.scriptTimeoutMs));
  Promise.race([import('./island.tsx'), timeout])
    .then((island) => island.hydrate(root, props))
    .catch(() => {
      document.querySelector('[data-enquiry-fallback]')?.removeAttribute('hidden');
    });
}
