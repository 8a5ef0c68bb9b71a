import { hydrateRoot } from 'react-dom/client';
import type { FormModel } from '../model.ts';
import { EnquiryForm } from './EnquiryForm.tsx';

/** Hydrates the server-rendered form; the only React the browser runs. */
export function hydrate(container: Element, props: FormModel) {
  hydrateRoot(container, <EnquiryForm {...props} />);
}
