import { hintOf } from '../../report/problem.ts';
import { PLACEHOLDER_PATTERN } from '../../schema/layout.ts';
import type { Check } from './check.ts';
import { unknownReference } from './check.ts';

const PLACEHOLDER = new RegExp(PLACEHOLDER_PATTERN);

/** The teachers a course names exist (a placeholder names nobody yet). */
export const courseTeachersExist: Check = ({ content, courses }) =>
  courses.flatMap((course) =>
    course.data.teachers.flatMap((t, i) =>
      typeof t !== 'string' || PLACEHOLDER.test(t) || content.teachers.has(t)
        ? []
        : unknownReference(content, course.source, ['teachers', i], {
            code: 'unknown-teacher',
            value: t,
            known: content.teachers.keys(),
            hint: hintOf('unknown-teacher', {}),
          }),
    ),
  );

/** The courses a teacher teaches exist (the list may be left out: the schema's default is not applied by validate). */
export const teacherCoursesExist: Check = ({ content }) =>
  [...content.teachers.values()].flatMap((teacher) =>
    (teacher.data.courses ?? []).flatMap((c, i) =>
      content.courses.has(c)
        ? []
        : unknownReference(content, teacher.source, ['courses', i], {
            code: 'unknown-course',
            value: c,
            known: content.courses.keys(),
            hint: hintOf('unknown-course', {}),
          }),
    ),
  );

/** Every option of the enquiry form enrols in a course that exists. */
export const formCoursesExist: Check = ({ content }) => {
  const form = content.form;
  if (!form) return [];
  return form.data.options.flatMap((o, i) =>
    content.courses.has(o.course)
      ? []
      : unknownReference(content, form.source, ['options', i, 'course'], {
          code: 'unknown-course',
          value: o.course,
          known: content.courses.keys(),
          hint: hintOf('unknown-course', {}, 'formOption'),
        }),
  );
};

/** Every schedule entry is of a course that exists. */
export const scheduleCoursesExist: Check = ({ content }) => {
  const schedule = content.schedule;
  if (!schedule) return [];
  return schedule.data.entries.flatMap((e, i) =>
    content.courses.has(e.course)
      ? []
      : unknownReference(content, schedule.source, ['entries', i, 'course'], {
          code: 'unknown-course',
          value: e.course,
          known: content.courses.keys(),
          hint: hintOf('unknown-course', {}, 'schedule'),
        }),
  );
};
