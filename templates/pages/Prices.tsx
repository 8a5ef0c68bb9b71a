import type { Chrome, PageBody, PageModel, PriceCategoryModel } from '../model.ts';
import { Price } from '../Price.tsx';
import { TableScroll } from '../TableScroll.tsx';
import { T, Texts, Th } from '../Text.tsx';

type PricesBody = Extract<PageBody, { kind: 'prices' }>;
type Ui = Chrome['ui'];

export function Prices({ page, body }: { page: PageModel; body: PricesBody }) {
  const { ui } = page.chrome;
  return (
    <>
      <T value={page.title} as="h1" />
      <T value={ui['prices.currencyNote']} as="p" />
      <Texts values={body.notes} as="p" rich />
      {body.categories.map((c) => (
        <PriceCategory key={c.id} category={c} ui={ui} />
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
          <Texts values={body.paymentRules} as="li" rich />
        </ul>
      </section>
      <p>
        <a className="button" href={`${page.chrome.homeHref}#enquiry`}>
          <T value={ui['course.signUpFor']} />
        </a>
      </p>
    </>
  );
}

function PriceCategory({ category: c, ui }: { category: PriceCategoryModel; ui: Ui }) {
  return (
    <section aria-labelledby={`cat-${c.id}`} className="price-category">
      <T value={c.title} as="h2" id={`cat-${c.id}`} />
      {c.items.length ? (
        <ul className="price-list">
          {c.items.map((item, i) =>
            item.type === 'sub' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: a subheading has no id; the list keeps content order, never reordered
              <T key={`sub-${i}`} value={item.label} as="li" className="sub" />
            ) : (
              <li key={item.id}>
                {item.href ? (
                  <a href={item.href} className="price-name">
                    <T value={item.label} />
                  </a>
                ) : (
                  <T value={item.label} className="price-name" />
                )}{' '}
                <Price price={item.price} />
              </li>
            ),
          )}
        </ul>
      ) : null}
      {c.table ? <PriceTable table={c.table} /> : null}
      <Texts values={c.notes} as="p" rich />
      <SignUp category={c} ui={ui} />
    </section>
  );
}

/** The way on from a category: sign up for its course (its page's form, the course chosen); for several, one link each. */
function SignUp({ category: c, ui }: { category: PriceCategoryModel; ui: Ui }) {
  if (!c.courses.length) return null;
  const only = c.courses.length === 1 ? c.courses[0] : undefined;
  return (
    <p className="card-actions">
      {only ? (
        <a className="button" href={only.signUpHref}>
          <T value={ui['course.signUp']} />
          <span className="visually-hidden">: {only.title.text}</span>
        </a>
      ) : (
        c.courses.map((course) => (
          <a key={course.key} className="button" href={course.signUpHref}>
            <T value={ui['course.signUp']} />: <T value={course.title} />
          </a>
        ))
      )}
    </p>
  );
}

/** Rows of what is priced, columns of how many (lessons, visits); every header cell says what it heads. */
function PriceTable({ table }: { table: NonNullable<PriceCategoryModel['table']> }) {
  return (
    <TableScroll label={table.caption}>
      <table>
        <T value={table.caption} as="caption" />
        <thead>
          <tr>
            <Th value={table.columnHeader} scope="col" />
            {table.columns.map((col, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional, like the amounts of each row
              <Th key={i} value={col} scope="col" />
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((r) => (
            <tr key={r.id}>
              <Th value={r.label} scope="row" />
              {r.amounts.map((a, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are positional
                <T key={i} value={a} as="td" />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
