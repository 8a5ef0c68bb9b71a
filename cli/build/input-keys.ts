import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Locale } from '../../templates/model.ts';
import { fromRoot } from '../paths.ts';
import { walk } from './walk.ts';

const sha1 = (...parts: string[]) => {
  const hash = createHash('sha1');
  for (const p of parts) hash.update(p).update('\0');
  return hash.digest('base64url');
};

let codeKey: string | undefined;
/** The compiler's own code: a change to how pages are resolved changes every key. */
function compilerKey(): string {
  if (codeKey) return codeKey;
  const hash = createHash('sha1');
  for (const file of walk(fromRoot('cli'))) hash.update(`${file}\0`).update(readFileSync(fromRoot('cli', file)));
  codeKey = hash.digest('base64url');
  return codeKey;
}

/**
 * The key of everything a course page is made from (see `resolvePages`): the compiler, the
 * templates and client bundle (`templateKey`), the build's options, every content file except
 * the course files, and the page's own course file. Same key, same page, without resolving it.
 */
export function courseInputKeys(
  sources: Map<string, string>,
  options: { templateKey: string; baseUrl?: string; today: string },
): (page: { locale: Locale; route: string; course: string }) => string | undefined {
  const courses = new Map<string, string>();
  const shared: string[] = [];
  for (const [file, text] of [...sources].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const course = /^courses\/([^/]+)\.ya?ml$/.exec(file)?.[1];
    if (course) courses.set(course, sha1(text));
    else shared.push(file, text);
  }
  const base = sha1(compilerKey(), options.templateKey, options.baseUrl ?? '', options.today, ...shared);
  return ({ locale, route, course }) => {
    const own = courses.get(course);
    return own && sha1(base, locale, route, course, own);
  };
}
