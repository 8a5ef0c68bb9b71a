import type { Problem } from '../report/problem.ts';
import type { ProblemCode } from '../report/problems.ts';
import { PLACEHOLDER_PATTERN } from '../schema/layout.ts';
import { didYouMean } from '../util/similar.ts';
import { checkTextSyntax } from './check-text-syntax.ts';
import type { Content, Entry } from './content.ts';
import { entries } from './content.ts';
import { checkDescriptions } from './description-length.ts';
import { type PathPart, problemAt } from './source.ts';

/** Sections of the home page that links may point to with `/#id`. */
export const HOME_SECTIONS = ['courses', 'offers', 'contacts', 'enquiry'] as const;

export interface CrossCheckOptions {
  /** "Today" for banner expiry, YYYY-MM-DD. */
  today: string;
}

/** Stage 3: what no schema can say — references, uniqueness, consistency between files. */
export function crossCheck(content: Content, options: CrossCheckOptions): Problem[] {
  const problems: Problem[] = [];
  const { courses, teachers } = content;
  const routePaths = new Set(content.routes?.data.routes.map((r) => r.path) ?? []);
  /** The courses each route shows (a path listed twice is reported separately). */
  const routeCourses = new Map<string, Set<string | undefined>>();
  for (const r of content.routes?.data.routes ?? []) routeCourses.set(r.path, (routeCourses.get(r.path) ?? new Set()).add(r.course));
  const priceIds = new Map<string, { amount: number; from?: boolean; per: string }>();

  const ref = (entry: Entry<never>, path: PathPart[], code: ProblemCode, what: string, value: string, known: Iterable<string>, hint: string) => {
    // A reference to a file that exists but has errors of its own: those errors say enough.
    if ((code === 'unknown-course' && content.invalidKeys.course.has(value)) || (code === 'unknown-teacher' && content.invalidKeys.teacher.has(value))) return;
    const list = [...known]; // may be an iterator: read it once
    problems.push(
      problemAt(entry.source, path, {
        code,
        severity: 'error',
        message: `${what} "${value}" does not exist.`,
        expected: `one of: ${[...list].sort().join(', ')}`,
        found: `"${value}"`,
        hint: didYouMean(value, list) ?? hint,
      }),
    );
  };

  const checkLink = (entry: Entry<never>, path: PathPart[], link: string) => {
    const [route, fragment] = link.split('#') as [string, string | undefined];
    if (content.routes && !routePaths.has(route)) ref(entry, path, 'unknown-route', 'The route', route, routePaths, 'Link to a route listed in routes.yaml.');
    else if (fragment && route === '/' && !(HOME_SECTIONS as readonly string[]).includes(fragment))
      ref(
        entry,
        path,
        'unknown-section',
        'The home page section',
        `#${fragment}`,
        HOME_SECTIONS.map((s) => `#${s}`),
        'Use one of the home page sections.',
      );
  };

  // Prices: ids are unique; remember them for course pages.
  if (content.prices) {
    const p = content.prices;
    p.data.categories.forEach((category, c) => {
      category.items.forEach((item, i) => {
        if (item.type !== 'item') return;
        if (priceIds.has(item.id))
          problems.push(
            problemAt(p.source, ['categories', c, 'items', i, 'id'], {
              code: 'duplicate-id',
              severity: 'error',
              message: `The price id "${item.id}" is used twice.`,
              found: `"${item.id}"`,
              hint: 'Give every price line its own id.',
            }),
          );
        priceIds.set(item.id, item.price);
      });
      category.table?.rows.forEach((row, r) => {
        if (row.amounts.length !== category.table!.columns.length)
          problems.push(
            problemAt(p.source, ['categories', c, 'table', 'rows', r, 'amounts'], {
              code: 'table-shape',
              severity: 'error',
              message: `The row has ${row.amounts.length} amounts but the table has ${category.table!.columns.length} columns.`,
              expected: `${category.table!.columns.length} amounts`,
              found: `${row.amounts.length}`,
              hint: 'Write one amount per column, in the order of `columns`.',
            }),
          );
      });
    });
  }

  // Routes: unique, and each shows something that exists.
  if (content.routes) {
    const r = content.routes;
    const seen = new Map<string, number>();
    r.data.routes.forEach((route, i) => {
      if (seen.has(route.path))
        problems.push(
          problemAt(r.source, ['routes', i, 'path'], {
            code: 'duplicate-route',
            severity: 'error',
            message: `The route ${route.path} is listed twice (first at entry ${seen.get(route.path)! + 1}).`,
            found: route.path,
            hint: 'Remove one of the two entries.',
          }),
        );
      seen.set(route.path, i);
      if (route.page === 'course') {
        if (!route.course)
          problems.push(
            problemAt(
              r.source,
              ['routes', i],
              {
                code: 'missing-key',
                severity: 'error',
                message: 'A course route needs the key "course".',
                expected: '"course: <course key>"',
                found: 'no course key',
                hint: 'Name the file in content/courses/ that this page shows.',
              },
              { key: true },
            ),
          );
        else if (!courses.has(route.course))
          ref(
            r as never,
            ['routes', i, 'course'],
            'unknown-course',
            'The course',
            route.course,
            courses.keys(),
            'Create content/courses/<key>.yaml or fix the key.',
          );
        else if (
          courses.get(route.course)!.data.route !== route.path &&
          !(courses.get(route.course)!.data.route && !routePaths.has(courses.get(route.course)!.data.route!))
        ) {
          // (A course route missing from the table is reported once, in the course file.)
          const course = courses.get(route.course)!;
          problems.push(
            problemAt(r.source, ['routes', i, 'course'], {
              code: 'route-mismatch',
              severity: 'error',
              message: `The route ${route.path} shows the course "${route.course}", but courses/${route.course}.yaml says its route is ${course.data.route ?? '(none)'}.`,
              expected: route.path,
              found: course.data.route ?? 'no route',
              hint: `Set "route: ${route.path}" in courses/${route.course}.yaml, or fix this entry.`,
            }),
          );
        }
      }
      if (route.page === 'legal' && !route.legal)
        problems.push(
          problemAt(
            r.source,
            ['routes', i],
            {
              code: 'missing-key',
              severity: 'error',
              message: 'A legal route needs the key "legal" (impressum, privacy or terms).',
              expected: '"legal: impressum|privacy|terms"',
              found: 'no legal key',
              hint: 'Say which legal text this page shows.',
            },
            { key: true },
          ),
        );
      if (route.page !== 'course' && route.course)
        problems.push(
          problemAt(
            r.source,
            ['routes', i, 'course'],
            {
              code: 'misplaced-key',
              severity: 'error',
              message: `"course" only belongs to routes with page: course (this one is page: ${route.page}).`,
              hint: 'Remove the key or change the page kind.',
            },
            { key: true },
          ),
        );
    });
    if (!r.data.routes.some((route) => route.path === '/'))
      problems.push(
        problemAt(
          r.source,
          ['routes'],
          {
            code: 'missing-home',
            severity: 'error',
            message: 'The route table has no home page "/".',
            hint: 'Unknown paths lead to the home page, so "/" must exist.',
          },
          { key: true },
        ),
      );
  }

  // Courses: route in the table, teachers and prices exist, price agrees with the list.
  for (const course of [...courses.values()].sort((a, b) => a.key.localeCompare(b.key))) {
    const d = course.data;
    // A route entry naming a course that does not exist is reported once, in routes.yaml.
    const namesUnknownCourse = [...(routeCourses.get(d.route ?? '') ?? [])].some((c) => c && !courses.has(c));
    if (d.route && content.routes && !routeCourses.get(d.route)?.has(course.key) && !namesUnknownCourse)
      problems.push(
        problemAt(course.source, ['route'], {
          code: routePaths.has(d.route) ? 'route-mismatch' : 'route-not-in-table',
          severity: 'error',
          message: routePaths.has(d.route) ? `The route ${d.route} belongs to another page in routes.yaml.` : `The route ${d.route} is not in routes.yaml.`,
          found: d.route,
          hint: didYouMean(d.route, routePaths) ?? `Add the route to routes.yaml with "page: course" and "course: ${course.key}".`,
        }),
      );
    d.teachers.forEach((t, i) => {
      if (!new RegExp(PLACEHOLDER_PATTERN).test(t) && !teachers.has(t))
        ref(
          course as never,
          ['teachers', i],
          'unknown-teacher',
          'The teacher',
          t,
          teachers.keys(),
          'Use the name of a file in content/teachers/ (without .yaml).',
        );
    });
    if (d.price?.ref && content.prices) {
      const listed = priceIds.get(d.price.ref);
      if (!listed)
        ref(course as never, ['price', 'ref'], 'unknown-price', 'The price line', d.price.ref, priceIds.keys(), 'Use the id of a line in prices.yaml.');
      else if (listed.amount !== d.price.amount || listed.per !== d.price.per || Boolean(listed.from) !== Boolean(d.price.from))
        problems.push(
          problemAt(course.source, ['price', 'amount'], {
            code: 'price-mismatch',
            severity: 'warning',
            message: `The course page states ${money(d.price)}, but the price list line "${d.price.ref}" says ${money(listed)}.`,
            expected: money(listed),
            found: money(d.price),
            hint: 'Visitors see both numbers. If one is outdated, correct it; if both are right (a different offer), keep them and mention the difference in the text.',
          }),
        );
    }
  }

  // Teachers: the courses they teach exist.
  for (const teacher of teachers.values())
    teacher.data.courses.forEach((c, i) => {
      if (!courses.has(c))
        ref(teacher as never, ['courses', i], 'unknown-course', 'The course', c, courses.keys(), 'Use the name of a file in content/courses/ (without .yaml).');
    });

  // Links from banners and the menu.
  if (content.banners) {
    const today = options.today;
    content.banners.data.banners.forEach((b, i) => {
      checkLink(content.banners as never, ['banners', i, 'cta', 'link'], b.cta.link);
      if (b.validUntil && b.validUntil < today)
        problems.push(
          problemAt(content.banners!.source, ['banners', i, 'validUntil'], {
            code: 'banner-expired',
            severity: 'warning',
            message: `The banner "${b.id}" expired on ${b.validUntil}; it is no longer shown.`,
            expected: `a date on or after ${today}`,
            found: b.validUntil,
            hint: 'Remove the banner, or move validUntil to a later date if the offer still runs.',
          }),
        );
    });
    uniqueIds(content.banners, ['banners'], content.banners.data.banners, problems);
  }
  content.site?.data.menu.forEach((m, i) => {
    checkLink(content.site as never, ['menu', i, 'link'], m.link);
  });

  // The form: every option names a course; values unique.
  if (content.form) {
    const values = new Set<string>();
    content.form.data.options.forEach((o, i) => {
      if (!courses.has(o.course))
        ref(
          content.form as never,
          ['options', i, 'course'],
          'unknown-course',
          'The course',
          o.course,
          courses.keys(),
          'Every form option enrols in a course of content/courses/.',
        );
      if (values.has(o.value))
        problems.push(
          problemAt(content.form!.source, ['options', i, 'value'], {
            code: 'duplicate-id',
            severity: 'error',
            message: `The option value "${o.value}" is used twice.`,
            hint: 'Enquiries could not tell the two apart: give each option its own value.',
          }),
        );
      values.add(o.value);
    });
  }
  content.schedule?.data.entries.forEach((e, i) => {
    if (!courses.has(e.course))
      ref(
        content.schedule as never,
        ['entries', i, 'course'],
        'unknown-course',
        'The course',
        e.course,
        courses.keys(),
        'Use the name of a file in content/courses/.',
      );
  });
  if (content.faq) uniqueIds(content.faq, ['items'], content.faq.data.items, problems);

  // Locales: the default and fallback are available.
  if (content.site) {
    const l = content.site.data.locales;
    if (!l.available.includes(l.default))
      problems.push(
        problemAt(content.site.source, ['locales', 'default'], {
          code: 'unknown-locale',
          severity: 'error',
          message: `The default locale "${l.default}" is not in locales.available.`,
          hint: 'Add it to available.',
        }),
      );
    if (!l.available.includes(l.fallback))
      problems.push(
        problemAt(content.site.source, ['locales', 'fallback'], {
          code: 'unknown-locale',
          severity: 'error',
          message: `The fallback locale "${l.fallback}" is not in locales.available.`,
          hint: 'Add it to available.',
        }),
      );
    if (/\.(example|invalid|test)(\/|$)|\/\/example\./.test(content.site.data.baseUrl))
      problems.push(problemAt(content.site.source, ['baseUrl'], placeholderProblem('the public address of the site', content.site.data.baseUrl)));
  }

  problems.push(...checkDescriptions(content));
  problems.push(...findPlaceholders(content));
  problems.push(...checkTextSyntax(content));
  return problems;
}

const money = (p: { amount: number; from?: boolean; per: string }) => `${p.from ? 'from ' : ''}${p.amount} EUR per ${p.per}`;

function uniqueIds(entry: Entry<never>, path: PathPart[], list: { id: string }[], problems: Problem[]) {
  const seen = new Set<string>();
  list.forEach((item, i) => {
    if (seen.has(item.id))
      problems.push(
        problemAt(entry.source, [...path, i, 'id'], {
          code: 'duplicate-id',
          severity: 'error',
          message: `The id "${item.id}" is used twice.`,
          found: `"${item.id}"`,
          hint: 'Give every entry its own id.',
        }),
      );
    seen.add(item.id);
  });
}

const placeholderProblem = (what: string, value: string): Omit<Problem, 'file' | 'line' | 'column' | 'path'> => ({
  code: 'placeholder',
  severity: 'warning',
  message: `Placeholder: ${what}.`,
  found: value,
  hint: 'This fact is not known yet and is shown to visitors as written. Replace it with the real value before publishing.',
});

/**
 * Every `TODO:` string. A localized text is reported once (at its Russian text), not once per
 * locale.
 */
function findPlaceholders(content: Content): Problem[] {
  const problems: Problem[] = [];
  const todo = new RegExp(PLACEHOLDER_PATTERN);
  const walk = (entry: Entry<never>, value: unknown, path: PathPart[]) => {
    if (typeof value === 'string') {
      if (todo.test(value)) problems.push(problemAt(entry.source, path, placeholderProblem(value.replace(todo, '').trim(), value)));
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        walk(entry, v, [...path, i]);
      });
    } else if (value && typeof value === 'object') {
      const map = value as Record<string, unknown>;
      if (typeof map.ru === 'string' && todo.test(map.ru)) walk(entry, map.ru, [...path, 'ru']);
      else for (const [k, v] of Object.entries(map)) walk(entry, v, [...path, k]);
    }
  };
  for (const entry of entries(content)) walk(entry as Entry<never>, entry.data, []);
  return problems;
}
