import type { CourseDetail } from '../../../templates/model.ts';
import { picture } from '../../images/picture.ts';
import type { CourseFile } from '../../schema/course.ts';
import type { UiKey } from '../../schema/ui-keys.ts';
import type { Entry } from '../../validate/content.ts';
import type { LocaleContext } from '../context.ts';
import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/** A course's page, with the enquiry form preselecting it. */
export const coursePage: Builder<'course'> = (ctx, route) => {
  const course = courseDetail(ctx, ctx.content.courses.get(route.course!)!);
  const d = ctx.content.courses.get(route.course!)!.data;
  return {
    ...titled(ctx, route),
    body: { kind: 'course', course },
    form: ctx.form(course.formValue),
    card: { age: course.age, price: course.price, photo: d.image },
  };
};

function courseDetail(ctx: LocaleContext, e: Entry<'course'>): CourseDetail {
  const { tx, ux } = ctx;
  const d = e.data;
  // A course's own heading where the usual one does not fit (a recording has no "trial lesson").
  const heading = (k: keyof NonNullable<CourseFile['headings']>) => {
    const own = d.headings?.[k];
    return own ? tx(own) : ux(`course.${k}` as UiKey);
  };
  return {
    key: e.key,
    // The first picture on the page, at its top.
    image: picture(ctx, d.image, 'coursePage', true),
    title: tx(d.title),
    summary: tx(d.summary),
    age: tx(d.age),
    format: tx(d.format),
    duration: tx(d.duration),
    teachers: d.teachers.map((t) => teacherRef(ctx, t)),
    price: d.price ? ctx.price(d.price) : undefined,
    goal: tx(d.goal),
    howClassesRun: tx(d.howClassesRun),
    features: d.features.map(tx),
    trial: tx(d.trial),
    languages: languages(ctx, d.languages),
    languagesNote: d.languagesNote ? tx(d.languagesNote) : undefined,
    rules: (d.rules ?? []).map(tx),
    steps: (d.steps ?? []).map((s) => ({ title: tx(s.title), text: s.text ? tx(s.text) : undefined })),
    subPrograms: (d.subPrograms ?? []).map((s) => ({ key: s.key, title: tx(s.title), age: tx(s.age), text: tx(s.text) })),
    headings: {
      goal: heading('goal'),
      howClassesRun: heading('howClassesRun'),
      trial: heading('trial'),
      teacher: heading('teacher'),
      languages: heading('languages'),
    },
    audience: d.audience,
    formValue: ctx.formValue(e.key),
  };
}

/** A teacher of the course: by name (and role) when the course names a teacher file, else the placeholder as written. */
function teacherRef({ content, tx }: LocaleContext, t: CourseFile['teachers'][number]): CourseDetail['teachers'][number] {
  if (typeof t !== 'string') return { name: tx(t) };
  const teacher = content.teachers.get(t);
  return teacher ? { name: tx(teacher.data.name), role: tx(teacher.data.role) } : { name: { text: t } };
}

/** The teaching languages, named in the page's language; a placeholder in the page's language where the studio has named none. */
function languages({ tx, ux }: LocaleContext, value: CourseFile['languages']): CourseDetail['languages'] {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return [{ text: value }];
  if (!Array.isArray(value)) return [tx(value)];
  return value.map((l) => ux(`lang.${l}` as UiKey));
}
