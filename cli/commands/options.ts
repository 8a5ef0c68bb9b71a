import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../report/problem.ts';
import { existsOrLink } from '../util/exists.ts';
import { real, within } from '../write/out-dir.ts';
import { MARK_FILE, readMark } from '../write/site-mark.ts';

/**
 * The checks of every option a user hands a command, made before the command does anything:
 * each wrong value is a UsageError (exit 2, one `error:` line and a `hint:`), never a stack
 * trace later on. The parsers are commander `argParser`s (see main.ts); the folder checks run
 * at the start of the commands, as they depend on more than one option.
 */

export function parsePort(value: string): number {
  const n = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 0 && n <= 65535)) throw new UsageError(`--port must be a whole number from 0 to 65535, not "${value}"`, '0 picks any free port');
  return n;
}

/** A plain decimal number (no "", "0x10" or "1e3"), at least `min`. */
export function parseNumber(value: string, option: string, min: number): number {
  const n = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= min)) throw new UsageError(`${option} must be a number of at least ${min}, not "${value}"`, `e.g. ${option} ${min + 3}; see content serve --help`);
  return n;
}

export function parseWholeNumber(value: string, option: string, min: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(Number.isSafeInteger(n) && n >= min))
    throw new UsageError(`${option} must be a whole number of at least ${min}, not "${value}"`, `e.g. ${option} ${min + 1}; see content serve --help`);
  return n;
}

export function parseBaseUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password || url.search || url.hash)
    throw new UsageError(
      `--base-url must be an absolute http:// or https:// address without query or fragment, not "${value}"`,
      'e.g. --base-url https://studio.example; without it, baseUrl in site.yaml is used',
    );
  return value;
}

/**
 * One more `--origin` (commander hands over the ones before as `previous`): an http(s) origin,
 * as a browser sends it in its Origin header, so a typo is told at once rather than
 * silently never matching.
 */
export function parseOrigin(value: string, previous: string[] = []): string[] {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // reported below
  }
  if (
    !url ||
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    !url.host ||
    url.username ||
    url.password ||
    url.pathname !== '/' ||
    url.search ||
    url.hash
  )
    throw new UsageError(
      `--origin must be an origin such as https://studio.example (scheme, host and port only), not "${value}"`,
      'e.g. --origin https://www.studio.example',
    );
  return [...previous, url.origin];
}

/** A real calendar date: 2026-02-30 is not one. */
export function parseDate(option: string) {
  return (value: string): string => {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    const date = m && new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    if (!date || date.toISOString().slice(0, 10) !== value)
      throw new UsageError(`${option} must be a real date written YYYY-MM-DD, not "${value}"`, 'e.g. 2026-09-01');
    return value;
  };
}

export const parseToday = parseDate('--today');

/** `--content`: an existing folder. */
export function checkContentDir(dir: string): void {
  if (!existsSync(dir) || !statSync(dir).isDirectory())
    throw new UsageError(
      `The content directory "${dir}" does not exist or is not a directory.`,
      'Pass --content DIR, or run the command in the project folder.',
    );
}

/** `content serve --out`: only read, but it must be a site `content build` made. */
export function checkBuiltSite(outDir: string): void {
  const hint = `build it with "content build --out ${outDir}" first, or give --out the folder "content build" wrote`;
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(outDir);
  } catch {
    throw new UsageError(`there is no built site in ${outDir}`, hint);
  }
  if (!st.isDirectory()) throw new UsageError(`--out ${outDir} is a file, not a built site`, hint);
  if (readMark(outDir).kind !== 'site') throw new UsageError(`--out ${outDir} is not a site built by "content build" (it has no ${MARK_FILE})`, hint);
}

/**
 * `content serve --data`: a folder the server can write, or create, that is not inside the
 * site (it would be served to every visitor) nor inside the content (it would be committed
 * with it). Nothing is created here; the inbox creates the folder when it opens.
 */
export function checkDataDir(dataDir: string, outDir: string): void {
  const data = real(resolve(dataDir));
  const hint = 'keep the inbox outside the site and the content, e.g. --data .enquiries (the default)';
  if (within(data, real(resolve(outDir))))
    throw new UsageError(`--data ${dataDir} is inside the built site ${outDir}, where every visitor could read it`, hint);
  const content = contentAbove(data);
  if (content) throw new UsageError(`--data ${dataDir} is inside the content folder ${content}`, hint);

  let existing = resolve(dataDir);
  while (!existsOrLink(existing)) existing = dirname(existing);
  const st = statSync(existing, { throwIfNoEntry: false });
  if (!st?.isDirectory()) throw new UsageError(`--data ${dataDir}: ${existing} is a file, not a folder`, 'give a folder for the enquiry inbox');
  const creating = existing !== resolve(dataDir);
  try {
    accessSync(existing, constants.W_OK | constants.X_OK);
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'EROFS' ? 'it is on a read-only file system' : 'no permission';
    throw new UsageError(
      creating ? `--data ${dataDir}: cannot create it in ${existing} (${why})` : `--data ${dataDir}: cannot write there (${why})`,
      'give a folder the server may write to; the inbox must be able to store every enquiry',
    );
  }
}

/** The content folder `path` is in, if any: an ancestor with site.yaml and ui.yaml. */
function contentAbove(path: string): string | undefined {
  for (let dir = path; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'site.yaml')) && existsSync(join(dir, 'ui.yaml'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}
