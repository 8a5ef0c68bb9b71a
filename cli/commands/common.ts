import { relative, resolve } from 'node:path';

/** Exit codes of every command. */
export const EXIT = { ok: 0, content: 1, usage: 2, internal: 70 } as const;

/** The options of the commands that read the content (validate, build, i18n, dev). */
export interface CommonOptions {
  content: string;
  format: string;
  quiet?: boolean;
}

/** How content file paths are shown: relative to the working directory ("content/"), or absolute when outside it. */
export function contentPrefix(dir: string): string {
  const rel = relative(process.cwd(), dir).replaceAll('\\', '/');
  if (rel.startsWith('../') || rel === '..') return `${resolve(dir).replaceAll('\\', '/')}/`;
  return rel === '' ? '' : `${rel}/`;
}
