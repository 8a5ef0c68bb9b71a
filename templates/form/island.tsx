import { hydrateRoot } from 'react-dom/client';
import { EnquiryForm } from './EnquiryForm.tsx';
import { type FormProps, formView } from './props.ts';

/** Hydrates the server-rendered form; the only React the browser runs. Its options and labels are read from its HTML. */
export function hydrate(container: Element, props: FormProps) {
  const form = container.querySelector('form');
  if (!form) throw new Error('no form to hydrate');
  hydrateRoot(container, <EnquiryForm {...formView(form, props)} />);
}
