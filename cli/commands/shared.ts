import { relative } from 'node:path';

/** How content file paths are shown: relative to the working directory, e.g. "content/". */
export function contentPrefix(dir: string): string {
  const rel = relative(process.cwd(), dir).replaceAll('\\', '/');
  return rel === '' ? '' : `${rel}/`;
}
