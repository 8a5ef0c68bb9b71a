import type { TeacherModel } from '../../../templates/model.ts';
import { picture } from '../../images/picture.ts';
import type { Entry } from '../../validate/content.ts';
import type { LocaleContext } from '../context.ts';
import type { Builder } from './page-kind.ts';
import { titled } from './page-kind.ts';

/** Every teacher, with links to the pages of the courses they teach. */
export const teachersPage: Builder<'teachers'> = (ctx, route) => {
  const teachers = ctx.teachers();
  const first = teachers.findIndex((t) => t.data.image);
  return { ...titled(ctx, route), body: { kind: 'teachers', teachers: teachers.map((t, i) => teacher(ctx, t, i === first)) } };
};

/** `first`: this teacher's portrait is the first picture on screen. */
function teacher(ctx: LocaleContext, t: Entry<'teacher'>, first: boolean): TeacherModel {
  const { tx, url } = ctx;
  return {
    key: t.key,
    image: picture(ctx, t.data.image, 'teacher', first),
    name: tx(t.data.name),
    role: tx(t.data.role),
    edu: tx(t.data.edu),
    text1: tx(t.data.text1),
    text2: tx(t.data.text2),
    extra: [t.data.extra1, t.data.extra2].filter((x) => x !== undefined).map(tx),
    quote: t.data.quote ? tx(t.data.quote) : undefined,
    courses: (t.data.courses ?? []).flatMap((k) => {
      const course = ctx.content.courses.get(k);
      return course?.data.route ? [{ href: url(course.data.route), label: tx(course.data.title) }] : [];
    }),
  };
}
