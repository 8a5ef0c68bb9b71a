import { isPlaceholder } from '../../schema/layout.ts';
import type { UiKey } from '../../schema/ui-keys.ts';
import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/** The group schedule: day, time and course of each group; "to be announced" where the studio has not said. */
export const schedulePage: Builder<'schedule'> = (ctx, route) => {
  const { tx, ux, url } = ctx;
  const schedule = ctx.content.schedule.data;
  const rows = schedule.entries.map((e) => {
    const course = ctx.content.courses.get(e.course)!;
    const known = !isPlaceholder(e.day) && !isPlaceholder(e.start) && !isPlaceholder(e.end);
    return {
      day: isPlaceholder(e.day) ? ux('schedule.toBeAnnounced') : ux(`schedule.${e.day}` as UiKey),
      time: known ? { text: `${e.start}–${e.end}` } : ux('schedule.toBeAnnounced'),
      course: { href: course.data.route ? url(course.data.route) : url('/'), label: tx(course.data.title) },
      note: e.note ? tx(e.note) : undefined,
    };
  });
  return { ...titled(ctx, route), body: { kind: 'schedule', intro: tx(schedule.intro), rows, notes: (schedule.notes ?? []).map(tx) } };
};
