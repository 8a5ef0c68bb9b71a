import { relative, resolve } from 'node:path';

/** Exit codes of every command. */
export const EXIT = { ok: 0, content: 1, usage: 2, internal: 70 } as const;

/** The output formats of the commands that report problems. */
export const FORMATS = ['human', 'json', 'github'] as const;

export const formatOption = <const F extends readonly string[]>(formats: F, fallback: F[number]) =>
  ({ flag: '--format <format>', description: 'output format', choices: formats, default: fallback }) as const;

/** The options of the commands that read the content (validate, build, i18n, dev), first in each. */
export const commonOptions = <const F extends readonly ['human', ...string[]]>(formats: F) =>
  ({
    content: { flag: '--content <dir>', description: 'the content directory', default: 'content' },
    format: formatOption(formats, formats[0]),
    quiet: { flag: '--quiet', description: 'print only errors and the summary' },
  }) as const;

/** How content file paths are shown: relative to the working directory ("content/"), or absolute when outside it. */
export function contentPrefix(dir: string): string {
  const rel = relative(process.cwd(), dir).replaceAll('\\', '/');
  if (rel.startsWith('../') || rel === '..') return `${resolve(dir).replaceAll('\\', '/')}/`;
  return rel === '' ? '' : `${rel}/`;
}
