import { hydrateRoot } from 'react-dom/client';
import { EnquiryForm } from './EnquiryForm.tsx';
import { type FormProps, formView } from './props.ts';

/**
 * Hydrates the server-rendered form; the only React the browser runs. Its options and labels are
 * read from its HTML. Should React fail for good while rendering (it then removes what it
 * rendered), the plain form comes back as it was served, with what the visitor had typed, and
 * `onFail` shows the message with phone and e-mail: the browser posts that form itself.
 */
export function hydrate(container: Element, props: FormProps, onFail: () => void) {
  const form = container.querySelector('form');
  if (!form) throw new Error('no form to hydrate');
  const served = container.innerHTML;
  // What is in the fields now (typed before the script arrived: not in innerHTML), then every change.
  const typed = new Map<string, string>();
  const remember = (el: HTMLInputElement | null) => {
    if (el?.name && el.type !== 'hidden' && typeof el.value === 'string') typed.set(el.name, el.value);
  };
  for (const el of form.querySelectorAll<HTMLInputElement>('input, select, textarea')) remember(el);
  const onChange = (event: Event) => remember(event.target as HTMLInputElement | null);
  container.addEventListener('input', onChange, true);
  container.addEventListener('change', onChange, true);
  const root = hydrateRoot(container, <EnquiryForm {...formView(form, props)} />, {
    onUncaughtError: () =>
      // After React has finished with the container: it is ours again.
      setTimeout(() => {
        root.unmount();
        container.innerHTML = served;
        const plain = container.querySelector('form');
        for (const [name, value] of typed) {
          const el = plain?.elements.namedItem(name) as HTMLInputElement | null;
          if (el && 'value' in el) el.value = value;
        }
        onFail();
      }),
  });
}
