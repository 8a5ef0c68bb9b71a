import type { Chrome, Contacts } from './model.ts';
import { T } from './Text.tsx';

/** The phone or the e-mail: a link once it has a real address, plain text while it is a placeholder. */
export function ContactLink({ href, text }: { href?: string; text: string }) {
  return href ? <a href={href}>{text}</a> : text;
}

/** Phone and e-mail on one line, where a visitor needs another way to reach the studio (the form failed). */
export function PhoneAndEmail({ contacts: c }: { contacts: Pick<Contacts, 'phone' | 'phoneHref' | 'email' | 'emailHref'> }) {
  return (
    <>
      <ContactLink href={c.phoneHref} text={c.phone} />
      {' ·'} <ContactLink href={c.emailHref} text={c.email} />
    </>
  );
}

/** Phone, e-mail and address, each under its name (the footer, the home page's contact section). */
export function ContactList({ contacts: c, ui }: Pick<Chrome, 'contacts' | 'ui'>) {
  return (
    <dl className="contacts">
      <div>
        <dt>
          <T value={ui['footer.phone']} />
        </dt>
        <dd>
          <ContactLink href={c.phoneHref} text={c.phone} />
        </dd>
      </div>
      <div>
        <dt>
          <T value={ui['footer.email']} />
        </dt>
        <dd>
          <ContactLink href={c.emailHref} text={c.email} />
        </dd>
      </div>
      <div>
        <dt>
          <T value={ui['footer.address']} />
        </dt>
        <dd>
          {c.address}
          <br />
          <T value={c.location} />
        </dd>
      </div>
    </dl>
  );
}
