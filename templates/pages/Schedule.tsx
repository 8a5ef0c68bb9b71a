import type { PageBody, PageModel } from '../model.ts';
import { TableScroll } from '../TableScroll.tsx';
import { Aside, T, Texts, Th } from '../Text.tsx';

export function Schedule({ page, body }: { page: PageModel; body: Extract<PageBody, { kind: 'schedule' }> }) {
  const { ui } = page.chrome;
  return (
    <>
      <T value={page.title} as="h1" />
      <T value={body.intro} as="p" rich />
      <TableScroll label={page.title}>
        <table>
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
      <Texts values={body.notes} as="p" rich />
    </>
  );
}
