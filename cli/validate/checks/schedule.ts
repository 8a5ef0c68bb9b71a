import { problemAt } from '../../load/source.ts';
import { catalogued, expectedOf, foundOf } from '../../report/problem.ts';
import type { Check } from './check.ts';

const TIME = /^\d\d:\d\d$/;

/** A group ends after it starts (placeholders are not times yet). */
export const scheduleEndsAfterStart: Check = ({ content }) => {
  const schedule = content.schedule;
  if (!schedule) return [];
  return schedule.data.entries.flatMap((e, i) =>
    TIME.test(e.start) && TIME.test(e.end) && e.end <= e.start
      ? [
          problemAt(
            schedule.source,
            ['entries', i, 'end'],
            catalogued(
              'end-before-start',
              { start: e.start, end: e.end },
              { expected: expectedOf('end-before-start', 'after', { start: e.start }), found: e.end },
            ),
          ),
        ]
      : [],
  );
};

/** Every course the site shows (one with a page of its own) can be chosen in the enquiry form. */
export const coursesInForm: Check = ({ content, courses }) => {
  const form = content.form;
  if (!form) return [];
  const offered = new Set(form.data.options.map((o) => o.course));
  // An option naming a course that does not exist is reported as such; it may be this course misspelt.
  if ([...offered].some((c) => !content.courses.has(c))) return [];
  return courses.flatMap((course) =>
    offered.has(course.key) || !course.data.route
      ? []
      : [
          problemAt(
            form.source,
            ['options'],
            catalogued(
              'course-not-in-form',
              { course: course.key, value: course.key.toLowerCase().replace(/[^a-z0-9]/g, '') },
              { found: foundOf('course-not-in-form', 'noOption', { course: course.key }) },
            ),
            { key: true },
          ),
        ],
  );
};
