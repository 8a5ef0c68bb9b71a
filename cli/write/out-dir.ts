import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { PROJECT_ROOT } from '../paths.ts';
import { UsageError } from '../report/problem.ts';
import { MARK_FILE, readMark } from './site-mark.ts';

const NEW_FOLDER = 'give --out a new or empty folder (e.g. --out dist), or a site "content build" made before';

/**
 * Whether `content build` may write its site to `out` (and later replace it): a path that does
 * not exist, an empty folder, or a site it built (it carries the mark). Anything else throws a
 * UsageError saying what is there: a file, a user's folder, the content, the compiler, the
 * working directory, the home folder, `/`. Checked before the build starts and again before the
 * swap.
 */
export function checkOutDir(outDir: string, contentDir: string): void {
  const out = real(resolve(outDir));
  const content = real(resolve(contentDir));
  const shown = outDir;
  if (out === sep) throw new UsageError(`--out ${shown} is the root folder of the file system`, NEW_FOLDER);
  if (out === real(homedir())) throw new UsageError(`--out ${shown} is your home folder`, NEW_FOLDER);
  if (within(PROJECT_ROOT, out))
    throw new UsageError(`--out ${shown} ${out === PROJECT_ROOT ? 'is' : 'holds'} the folder of the compiler itself (${PROJECT_ROOT})`, NEW_FOLDER);
  if (out === content)
    throw new UsageError(`--out ${shown} is the content folder`, 'the site goes beside the content: give --out a new or empty folder, e.g. --out dist');
  if (within(content, out)) throw new UsageError(`--out ${shown} holds the content folder (${contentDir})`, NEW_FOLDER);
  if (within(out, content))
    throw new UsageError(`--out ${shown} is inside the content folder (${contentDir})`, 'the site goes beside the content, e.g. --out dist');
  const cwd = real(process.cwd());
  if (within(cwd, out)) throw new UsageError(`--out ${shown} ${out === cwd ? 'is' : 'holds'} the working directory`, NEW_FOLDER);

  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(resolve(outDir));
  } catch {
    return; // a new folder
  }
  if (st.isSymbolicLink()) throw new UsageError(`--out ${shown} is a symbolic link`, `give the folder itself, or ${NEW_FOLDER}`);
  if (st.isFile()) throw new UsageError(`--out ${shown} is a file`, NEW_FOLDER);
  if (!st.isDirectory()) throw new UsageError(`--out ${shown} is not a folder (a device, pipe or socket)`, NEW_FOLDER);
  const mark = readMark(out);
  if (mark.kind === 'site') return; // not listed: a site holds thousands of files
  const entries = readdirSync(out).sort();
  if (!entries.length) return;
  if (mark.kind === 'newer')
    throw new UsageError(
      `--out ${shown} was built by a newer version of "content build" (mark format ${mark.format})`,
      'build with that version, or choose another --out',
    );
  throw new UsageError(
    `--out ${shown} is not a site built by "content build" (it has no ${MARK_FILE}) and holds ${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}: ${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', …' : ''}`,
    `the build replaces only a folder it built. ${NEW_FOLDER[0]!.toUpperCase()}${NEW_FOLDER.slice(1)}; if this is a site of an older version, delete it yourself once`,
  );
}

/** Whether `inner` is `outer` or below it. */
export function within(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor with the rest appended. */
export function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const up = dirname(path);
    return up === path ? path : join(real(up), basename(path));
  }
}
