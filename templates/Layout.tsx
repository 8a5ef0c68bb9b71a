import type { ReactNode } from 'react';
import { ContactList } from './Contacts.tsx';
import type { Chrome, Text } from './model.ts';
import { sharedHtml } from './shared-html.ts';
import { T } from './Text.tsx';

export function Layout({ chrome, url, children }: { chrome: Chrome; url: string; children: ReactNode }) {
  const { ui } = chrome;
  // The main menu of a locale, with the item of this page marked: pages that are not in the menu (most) share one rendering.
  const nav = { __html: sharedHtml(MainNav, { menu: chrome.menu, current: chrome.menu.find((m) => m.href === url)?.href, label: ui['nav.menu'] }) };
  return (
    <>
      <a className="skip-link" href="#main">
        <T value={ui['nav.skipToContent']} />
      </a>
      <header className="site-header">
        <div className="wrap header-row">
          <a className="brand" href={chrome.homeHref}>
            {chrome.siteName}
          </a>
          <nav className="lang-switch" aria-label={ui['nav.languageSwitcher'].text}>
            <ul>
              {chrome.alternates.map((a) => (
                <li key={a.locale}>
                  <a href={a.href} hrefLang={a.locale} lang={a.locale} aria-current={a.locale === chrome.locale ? 'page' : undefined}>
                    {a.name}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </div>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of <MainNav>, made once per locale and current item */}
        <nav className="main-nav wrap" aria-label={ui['nav.mainMenu'].text} dangerouslySetInnerHTML={nav} />
      </header>
      <main id="main" className="wrap">
        {children}
      </main>
      <footer
        className="site-footer"
        // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of <Footer>, made once per distinct set of its props
        dangerouslySetInnerHTML={{ __html: sharedHtml(Footer, { ui, hours: chrome.hours, contacts: chrome.contacts, footerLinks: chrome.footerLinks }) }}
      />
    </>
  );
}

/** The footer: it sees only its props (the key of `sharedHtml`), which are the same on every page of a locale. */
function Footer({ ui, hours, contacts, footerLinks }: Pick<Chrome, 'ui' | 'hours' | 'contacts' | 'footerLinks'>) {
  return (
    <div className="wrap footer-grid">
      <section aria-labelledby="footer-hours">
        <h2 id="footer-hours">
          <T value={ui['footer.hours']} />
        </h2>
        <dl>
          {hours.map((h, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: opening hours in content order, never reordered
            <div key={i}>
              <dt lang={h.days.lang}>{h.days.text}</dt>
              <dd>
                {h.time ? h.time : null}
                {h.note ? <T value={h.note} /> : null}
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <section aria-labelledby="footer-contacts">
        <h2 id="footer-contacts">
          <T value={ui['footer.contacts']} />
        </h2>
        <ContactList contacts={contacts} ui={ui} />
      </section>
      <section aria-labelledby="footer-links">
        <h2 id="footer-links">
          <T value={ui['footer.legal']} />
        </h2>
        <ul className="footer-links">
          {footerLinks.map((l) => (
            <li key={l.href}>
              <a href={l.href}>
                <T value={l.label} />
              </a>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

/**
 * The main menu, folded and wide (CSS shows one): it sees only the menu, the href of the current
 * page's item, if it has one, and the label of the fold (the key of `sharedHtml`).
 */
function MainNav({ menu, current, label }: { menu: Chrome['menu']; current: string | undefined; label: Text }) {
  const items = menu.map((m) => (
    <li key={m.id}>
      <a href={m.href} aria-current={m.href === current ? 'page' : undefined}>
        <T value={m.label} />
      </a>
    </li>
  ));
  return (
    <>
      <details className="menu-toggle">
        <summary>
          <T value={label} />
        </summary>
        <ul>{items}</ul>
      </details>
      <div className="menu-wide">
        <ul>{items}</ul>
      </div>
    </>
  );
}
