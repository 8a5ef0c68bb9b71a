import type { ReactNode } from 'react';
import { EnquiryForm } from './form/EnquiryForm.tsx';
import { formProps } from './form/props.ts';
import { Contacts } from './Layout.tsx';
import { sharedHtml } from './memo.ts';
import type { Chrome, CourseDetail, FormModel, PageBody, PageModel, PriceText, Text } from './model.ts';
import { scriptJson } from './script-json.ts';
import { Aside, Inline, T } from './Text.tsx';

type Ui = Chrome['ui'];

function Price({ price }: { price: PriceText }) {
  return (
    <span className="price">
      <T value={price.amount} as="strong" />
      {price.per ? (
        <>
          {' '}
          <T value={price.per} />
        </>
      ) : null}
      {price.note ? (
        <>
          {' '}
          <T value={price.note} as="small" />
        </>
      ) : null}
    </span>
  );
}

/**
 * A table wider than a phone scrolls inside this box, never the page (a shadow at the edge shows
 * there is more). Focusable and named, so keyboard users can scroll it too.
 */
function TableScroll({ label, children }: { label: Text; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1)
    <section className="table-scroll" aria-label={label.text} tabIndex={0}>
      {children}
    </section>
  );
}

function FormSection({ form, heading }: { form: FormModel; heading: Text }) {
  return (
    <section id="enquiry" className="enquiry" aria-labelledby="enquiry-title">
      <h2 id="enquiry-title">
        <T value={heading} />
      </h2>
      <T value={form.labels.intro} as="p" />
      <div className="script-failed" role="alert" data-enquiry-fallback hidden>
        <T value={form.labels.scriptFailed} as="p" />
        <p>
          {form.contacts.phoneHref ? <a href={form.contacts.phoneHref}>{form.contacts.phone}</a> : form.contacts.phone} ·{' '}
          {form.contacts.emailHref ? <a href={form.contacts.emailHref}>{form.contacts.email}</a> : form.contacts.email}
        </p>
      </div>
      <div
        data-enquiry-form
        // biome-ignore lint/security/noDangerouslySetInnerHtml: React's own rendering of <EnquiryForm>, made once per form model
        dangerouslySetInnerHTML={{ __html: sharedHtml(EnquiryForm, form) }}
      />
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: JSON data for the form script, `<` escaped; the rest it reads from the form */}
      <script type="application/json" id="enquiry-props" dangerouslySetInnerHTML={{ __html: scriptJson(formProps(form)) }} />
    </section>
  );
}

function Home({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'home' }> }) {
  const { ui } = page.chrome;
  return (
    <>
      <section className="hero">
        <T value={ui['home.heroTitle']} as="h1" />
        <T value={ui['home.heroText']} as="p" />
      </section>
      <section id="offers" aria-labelledby="offers-title">
        <h2 id="offers-title">
          <T value={ui['home.offersTitle']} />
        </h2>
        <ul className="banners">
          {body.banners.map((b) => (
            <li key={b.id} className="banner">
              <p className="pill">
                <T value={b.pill} />
                {b.isNew ? (
                  <>
                    {' '}
                    <T value={ui['home.newBadge']} className="badge" />
                  </>
                ) : null}
              </p>
              <T value={b.title} as="h3" />
              <T value={b.subtitle} as="p" />
              <a className="button" href={b.cta.href}>
                <T value={b.cta.label} />
              </a>
            </li>
          ))}
        </ul>
      </section>
      <section id="courses" aria-labelledby="courses-title">
        <h2 id="courses-title">
          <T value={ui['home.offeringsTitle']} />
        </h2>
        <ul className="cards">
          {body.courses.map((c) => (
            <li key={c.key} className="card">
              <T value={c.title} as="h3" />
              <p className="age">
                <T value={c.age} />
              </p>
              <T value={c.summary} as="p" />
              {c.price ? (
                <p>
                  <Price price={c.price} />
                </p>
              ) : null}
              <p className="card-actions">
                <a className="button" href={c.href ? `${c.href}#enquiry` : '#enquiry'}>
                  <T value={ui['course.signUp']} />
                  <span className="visually-hidden">: {c.title.text}</span>
                </a>
                {c.href ? (
                  <a className="more" href={c.href}>
                    <T value={ui['course.moreDetails']} /> <span aria-hidden="true">→</span>
                    <span className="visually-hidden">: {c.title.text}</span>
                  </a>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      </section>
      <section id="contacts" aria-labelledby="contacts-title">
        <h2 id="contacts-title">
          <T value={ui['home.contactTitle']} />
        </h2>
        <T value={ui['home.contactText']} as="p" />
        <Contacts contacts={page.chrome.contacts} ui={page.chrome.ui} />
      </section>
      {page.form ? <FormSection form={page.form} heading={page.form.labels.title} /> : null}
    </>
  );
}

function Fact({ label, value }: { label: Text; value: Text }) {
  return (
    <div>
      <T value={label} as="dt" />
      <T value={value} as="dd" />
    </div>
  );
}

function Course({ page, course }: { page: PageModel; course: CourseDetail }) {
  const { ui } = page.chrome;
  return (
    <article>
      <T value={course.title} as="h1" />
      <T value={course.summary} as="p" className="lead" rich />
      {course.audience === 'parents' ? <T value={ui['course.forParentsOnly']} as="p" className="notice" /> : null}
      <p>
        <a className="button" href="#enquiry">
          <T value={ui['course.signUp']} />
        </a>
      </p>
      <dl className="facts">
        <Fact label={ui['course.age']} value={course.age} />
        <Fact label={ui['course.format']} value={course.format} />
        <Fact label={ui['course.duration']} value={course.duration} />
        <div>
          <T value={ui['course.teacher']} as="dt" />
          <dd>
            <Inline values={course.teachers.map((t) => t.role)} />
          </dd>
        </div>
        {course.price ? (
          <div>
            <T value={ui['course.price']} as="dt" />
            <dd>
              <Price price={course.price} />
            </dd>
          </div>
        ) : null}
        <div>
          <T value={ui['course.languages']} as="dt" />
          <dd>
            <Inline values={course.languages} />
            <Aside value={course.languagesNote} />
          </dd>
        </div>
      </dl>
      <h2>
        <T value={ui['course.goal']} />
      </h2>
      <T value={course.goal} as="p" rich />
      <h2>
        <T value={ui['course.howClassesRun']} />
      </h2>
      <T value={course.howClassesRun} as="p" rich />
      <h2>
        <T value={ui['course.features']} />
      </h2>
      <ul>
        {course.features.map((f) => (
          <T key={f.text} value={f} as="li" rich />
        ))}
      </ul>
      {course.subPrograms.length ? (
        <>
          <h2>
            <T value={ui['course.subPrograms']} />
          </h2>
          {course.subPrograms.map((s) => (
            <section key={s.key} aria-labelledby={`sub-${s.key}`}>
              <T value={s.title} as="h3" id={`sub-${s.key}`} />
              <T value={s.age} as="p" className="age" />
              <T value={s.text} as="p" rich />
            </section>
          ))}
        </>
      ) : null}
      {course.steps.length ? (
        <>
          <h2>
            <T value={ui['course.steps']} />
          </h2>
          <ol className="steps">
            {course.steps.map((s) => (
              <li key={s.title.text}>
                <T value={s.title} as="strong" />
                {s.text ? <T value={s.text} as="p" rich /> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {course.rules.length ? (
        <>
          <h2>
            <T value={ui['course.rules']} />
          </h2>
          <ul>
            {course.rules.map((r) => (
              <T key={r.text} value={r} as="li" rich />
            ))}
          </ul>
        </>
      ) : null}
      <h2>
        <T value={ui['course.trial']} />
      </h2>
      <T value={course.trial} as="p" rich />
      {page.form ? <FormSection form={page.form} heading={ui['course.signUp']} /> : null}
    </article>
  );
}

function Prices({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'prices' }> }) {
  const { ui } = page.chrome;
  return (
    <>
      <T value={page.title} as="h1" />
      <T value={ui['prices.currencyNote']} as="p" />
      {body.categories.map((c) => (
        <section key={c.id} aria-labelledby={`cat-${c.id}`} className="price-category">
          <T value={c.title} as="h2" id={`cat-${c.id}`} />
          {c.items.length ? (
            <ul className="price-list">
              {c.items.map((item) =>
                item.type === 'sub' ? (
                  <T key={`sub-${item.label.text}`} value={item.label} as="li" className="sub" />
                ) : (
                  <li key={item.id}>
                    <T value={item.label} className="price-name" /> <Price price={item.price} />
                  </li>
                ),
              )}
            </ul>
          ) : null}
          {c.table ? (
            <TableScroll label={c.table.caption}>
              <table>
                <T value={c.table.caption} as="caption" />
                <thead>
                  <tr>
                    <T value={c.table.columnHeader} as="th" />
                    {c.table.columns.map((col) => (
                      <th key={col.text} scope="col" lang={col.lang}>
                        {col.text}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {c.table.rows.map((r) => (
                    <tr key={r.id}>
                      <th scope="row" lang={r.label.lang}>
                        {r.label.text}
                      </th>
                      {r.amounts.map((a, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                        <T key={i} value={a} as="td" />
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          ) : null}
          {c.notes.map((n) => (
            <T key={n.text} value={n} as="p" rich />
          ))}
        </section>
      ))}
      <section aria-labelledby="recording-title">
        <h2 id="recording-title">
          <T value={ui['prices.recordingTitle']} />
        </h2>
        <ul className="cards">
          {body.recordingPackages.map((p) => (
            <li key={p.id} className="card">
              <h3>{p.name}</h3>
              <T value={p.description} as="p" rich />
              <T value={p.revisions} as="p" />
              {p.price ? <Price price={p.price} /> : null}
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="payment-title">
        <h2 id="payment-title">
          <T value={ui['prices.paymentTitle']} />
        </h2>
        <ul>
          {body.paymentRules.map((r) => (
            <T key={r.text} value={r} as="li" rich />
          ))}
        </ul>
      </section>
    </>
  );
}

function Simple({ page, ui }: { page: PageModel; ui: Ui }) {
  const b = page.body;
  switch (b.kind) {
    case 'teachers':
      return (
        <>
          <T value={page.title} as="h1" />
          <ul className="cards">
            {b.teachers.map((t) => (
              <li key={t.key} className="card">
                <T value={t.name} as="h2" />
                <T value={t.role} as="p" className="age" />
                <p>
                  <T value={ui['teachers.education']} as="strong" />: <T value={t.edu} />
                </p>
                <T value={t.text1} as="p" rich />
                <T value={t.text2} as="p" rich />
                {t.extra.map((e) => (
                  <T key={e.text} value={e} as="p" rich />
                ))}
                {t.quote ? <T value={t.quote} as="blockquote" /> : null}
                {t.courses.length ? (
                  <p>
                    <T value={ui['teachers.courses']} />:{' '}
                    {t.courses.map((c, i) => (
                      <span key={c.href}>
                        {i ? ', ' : ''}
                        <a href={c.href}>
                          <T value={c.label} />
                        </a>
                      </span>
                    ))}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      );
    case 'faq':
      return (
        <>
          <T value={page.title} as="h1" />
          <T value={ui['faq.intro']} as="p" />
          {b.items.map((q) => (
            <section key={q.id} id={q.id} className="faq-item" aria-labelledby={`q-${q.id}`}>
              <T value={q.question} as="h2" id={`q-${q.id}`} />
              {q.answer.map((a) => (
                <T key={a.text} value={a} as="p" rich />
              ))}
            </section>
          ))}
        </>
      );
    case 'schedule':
      return (
        <>
          <T value={page.title} as="h1" />
          <T value={b.intro} as="p" rich />
          <TableScroll label={page.title}>
            <table>
              <thead>
                <tr>
                  <T value={ui['schedule.course']} as="th" />
                  <T value={ui['schedule.day']} as="th" />
                  <T value={ui['schedule.time']} as="th" />
                </tr>
              </thead>
              <tbody>
                {b.rows.map((r, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows keep content order
                  <tr key={i}>
                    <th scope="row">
                      <a href={r.course.href}>
                        <T value={r.course.label} />
                      </a>
                    </th>
                    <T value={r.day} as="td" />
                    <td>
                      <T value={r.time} />
                      <Aside value={r.note} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        </>
      );
    case 'legal':
      return (
        <>
          <T value={page.title} as="h1" />
          {b.sections.map((s) => (
            <section key={s.heading.text}>
              <T value={s.heading} as="h2" />
              {s.body.map((p) => (
                <T key={p.text} value={p} as="p" rich />
              ))}
            </section>
          ))}
        </>
      );
    case 'thanks':
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
    case 'notFound':
      return (
        <>
          <T value={ui['notFound.title']} as="h1" />
          <T value={ui['notFound.text']} as="p" />
          <p>
            <a href={b.homeHref}>
              <T value={ui['notFound.redirecting']} />
            </a>
          </p>
        </>
      );
    default:
      return null;
  }
}

export function PageContent({ page }: { page: PageModel }) {
  const b = page.body;
  if (b.kind === 'home') return <Home page={page} body={b} />;
  if (b.kind === 'course') return <Course page={page} course={b.course} />;
  if (b.kind === 'prices') return <Prices page={page} body={b} />;
  return <Simple page={page} ui={page.chrome.ui} />;
}
