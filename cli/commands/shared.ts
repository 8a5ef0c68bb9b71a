import { relative, resolve } from 'node:path';

/** How content file paths are shown: relative to the working directory ("content/"), or absolute when outside it. */
export function contentPrefix(dir: string): string {
  const rel = relative(process.cwd(), dir).replaceAll('\\', '/');
  if (rel.startsWith('../') || rel === '..') return `${resolve(dir).replaceAll('\\', '/')}/`;
  return rel === '' ? '' : `${rel}/`;
}
