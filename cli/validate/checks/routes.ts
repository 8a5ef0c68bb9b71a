import { problemAt } from '../../load/source.ts';
import { catalogued, expectedOf, foundOf, hintOf } from '../../report/problem.ts';
import { withFix } from '../explain-schema-errors.ts';
import { suggest } from '../suggest.ts';
import type { Check } from './check.ts';
import { unknownReference } from './check.ts';

/** A path is listed once in the route table. */
export const uniqueRoutes: Check = ({ content }) => {
  const routes = content.routes;
  if (!routes) return [];
  const seen = new Map<string, number>();
  return routes.data.routes.flatMap((route, i) => {
    const first = seen.get(route.path);
    seen.set(route.path, i);
    if (first === undefined) return [];
    return [problemAt(routes.source, ['routes', i, 'path'], catalogued('duplicate-route', { value: route.path, first: first + 1 }, { found: route.path }))];
  });
};

/** A course route names a course that exists and says this route is its own. */
export const courseRoutesShowCourses: Check = ({ content, routePaths }) => {
  const routes = content.routes;
  if (!routes) return [];
  return routes.data.routes.flatMap((route, i) => {
    if (route.page !== 'course') return [];
    if (!route.course)
      return [
        problemAt(
          routes.source,
          ['routes', i],
          catalogued(
            'missing-key',
            {},
            {
              variant: 'courseRoute',
              expected: expectedOf('missing-key', 'courseRoute', {}),
              found: foundOf('missing-key', 'courseRoute', {}),
              hint: hintOf('missing-key', {}, 'courseRoute'),
            },
          ),
          { key: true },
        ),
      ];
    const course = content.courses.get(route.course);
    if (!course)
      return unknownReference(content, routes.source, ['routes', i, 'course'], {
        code: 'unknown-course',
        value: route.course,
        known: content.courses.keys(),
        hint: hintOf('unknown-course', {}, 'routeTable'),
      });
    const own = course.data.route;
    // A course route missing from the table is reported once, in the course file.
    if (own === route.path || (own && !routePaths.has(own))) return [];
    return [
      problemAt(
        routes.source,
        ['routes', i, 'course'],
        catalogued(
          'route-mismatch',
          { value: route.path, course: route.course, own: own ?? '(none)' },
          { expected: route.path, found: own ?? foundOf('route-mismatch', 'none', {}) },
        ),
      ),
    ];
  });
};

/** A legal route says which legal text it shows. */
export const legalRoutesNameText: Check = ({ content }) => {
  const routes = content.routes;
  if (!routes) return [];
  return routes.data.routes.flatMap((route, i) =>
    route.page !== 'legal' || route.legal
      ? []
      : [
          problemAt(
            routes.source,
            ['routes', i],
            catalogued(
              'missing-key',
              {},
              {
                variant: 'legalRoute',
                expected: expectedOf('missing-key', 'legalRoute', {}),
                found: foundOf('missing-key', 'legalRoute', {}),
                hint: hintOf('missing-key', {}, 'legalRoute'),
              },
            ),
            { key: true },
          ),
        ],
  );
};

/** Only a course route names a course. */
export const courseKeyOnCourseRoutes: Check = ({ content }) => {
  const routes = content.routes;
  if (!routes) return [];
  return routes.data.routes.flatMap((route, i) =>
    route.page === 'course' || !route.course
      ? []
      : [problemAt(routes.source, ['routes', i, 'course'], catalogued('misplaced-key', { key: 'course', page: route.page }), { key: true })],
  );
};

/** Unknown paths lead to the home page, so the table has one. */
export const homeRouteExists: Check = ({ content }) => {
  const routes = content.routes;
  if (!routes || routes.data.routes.some((route) => route.path === '/')) return [];
  return [problemAt(routes.source, ['routes'], catalogued('missing-home'), { key: true })];
};

/** A course's route is in the route table, as a route that shows this course. */
export const courseRoutesInTable: Check = ({ content, routePaths, routeCourses, courses }) => {
  if (!content.routes) return [];
  return courses.flatMap((course) => {
    const route = course.data.route;
    if (!route || routeCourses.get(route)?.has(course.key)) return [];
    // A route entry naming a course that does not exist is reported once, in routes.yaml.
    if ([...(routeCourses.get(route) ?? [])].some((c) => c && !content.courses.has(c))) return [];
    const listed = routePaths.has(route);
    // A copied course file whose route was left as it was: the route is another course's.
    const owner = [...(routeCourses.get(route) ?? [])].find((c) => c && c !== course.key && content.courses.get(c)?.data.route === route);
    if (owner) {
      const suggestion = `/${course.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/[^a-z0-9-]/g, '-')}`.replace(/-+/g, '-');
      return [
        problemAt(
          course.source,
          ['route'],
          catalogued(
            'route-taken',
            { value: route, owner: `courses/${owner}.yaml`, course: course.key, suggestion },
            { expected: expectedOf('route-taken', 'own', {}), found: route },
          ),
        ),
      ];
    }
    const close = listed
      ? undefined
      : suggest(
          route,
          [...routePaths].filter((r) => routeCourses.get(r)?.has(course.key)),
        );
    const problem = problemAt(
      course.source,
      ['route'],
      listed
        ? catalogued(
            'route-mismatch',
            { value: route },
            { variant: 'otherPage', found: route, hint: hintOf('route-mismatch', { course: course.key }, 'otherPage') },
          )
        : catalogued('route-not-in-table', { value: route, course: course.key }, { found: route, hint: close?.hint }),
    );
    return [close ? withFix(course.source, problem, close.fixed) : problem];
  });
};
