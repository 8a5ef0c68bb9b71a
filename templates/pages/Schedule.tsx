import type { PageBody, PageModel } from '../model.ts';
import { TableScroll } from '../TableScroll.tsx';
import { Aside, T, Texts, Th } from '../Text.tsx';

const TIME_RANGE = /^\d{1,2}:\d{2}–\d{1,2}:\d{2}$/;

export function Schedule({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'schedule' }> }) {
  const { ui } = page.chrome;
  return (
    <>
      <T value={page.title} as="h1" />
      <T value={body.intro} as="p" rich />
      <TableScroll label={page.title}>
        <table className="stacked">
          <thead>
            <tr>
              <Th value={ui['schedule.course']} scope="col" />
              <Th value={ui['schedule.day']} scope="col" />
              <Th value={ui['schedule.time']} scope="col" />
            </tr>
          </thead>
          <tbody>
            {body.rows.map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows keep content order
              <tr key={i}>
                <th scope="row">
                  <a href={r.course.href}>
                    <T value={r.course.label} />
                  </a>
                </th>
                {/* data-label: on a narrow screen each row is a card, every cell headed by its column's name (styles.css). */}
                <td data-label={ui['schedule.day'].text}>
                  <T value={r.day} />
                </td>
                <td data-label={ui['schedule.time'].text}>
                  {/* A time range stays on one line ("19:00–20:00"); "to be announced" may wrap. */}
                  <T value={r.time} className={TIME_RANGE.test(r.time.text) ? 'time' : undefined} />
                  <Aside value={r.note} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <Texts values={body.notes} as="p" rich />
    </>
  );
}
