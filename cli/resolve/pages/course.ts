import type { CourseDetail } from '../../../templates/model.ts';
import type { UiKey } from '../../schema/ui-keys.ts';
import type { Entry } from '../../validate/content.ts';
import type { LocaleContext } from '../context.ts';
import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/** A course's page, with the enquiry form preselecting it. */
export const coursePage: Builder<'course'> = (ctx, route) => {
  const course = courseDetail(ctx, ctx.content.courses.get(route.course!)!);
  return { ...titled(ctx, route), body: { kind: 'course', course }, form: ctx.form(course.formValue) };
};

function courseDetail(ctx: LocaleContext, e: Entry<'course'>): CourseDetail {
  const { tx, ux } = ctx;
  const d = e.data;
  return {
    key: e.key,
    title: tx(d.title),
    summary: tx(d.summary),
    age: tx(d.age),
    format: tx(d.format),
    duration: tx(d.duration),
    teachers: d.teachers.map((key) => teacherRef(ctx, key)),
    price: d.price ? ctx.price(d.price) : undefined,
    goal: tx(d.goal),
    howClassesRun: tx(d.howClassesRun),
    features: d.features.map(tx),
    trial: tx(d.trial),
    languages: typeof d.languages === 'string' ? [{ text: d.languages }] : d.languages.map((l) => ux(`lang.${l}` as UiKey)),
    languagesNote: d.languagesNote ? tx(d.languagesNote) : undefined,
    rules: (d.rules ?? []).map(tx),
    steps: (d.steps ?? []).map((s) => ({ title: tx(s.title), text: s.text ? tx(s.text) : undefined })),
    subPrograms: (d.subPrograms ?? []).map((s) => ({ key: s.key, title: tx(s.title), age: tx(s.age), text: tx(s.text) })),
    audience: d.audience,
    formValue: ctx.formValue(e.key),
  };
}

/** A teacher of the course, by name and role. */
function teacherRef({ content, tx }: LocaleContext, key: string): CourseDetail['teachers'][number] {
  const t = content.teachers.get(key);
  return t ? { key, name: tx(t.data.name), role: tx(t.data.role) } : { key, name: { text: key }, role: { text: key } };
}
