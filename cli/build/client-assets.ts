import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageModel } from '../../templates/model.ts';
import { CACHE_DIR, fromRoot } from '../paths.ts';
import { cliEntry } from './entry.ts';
import { walk } from './walk.ts';

/** What Vike adds to a page of each group: the stylesheet after `<head>`, the form's script before `</body>`. */
export interface Inserts {
  head: string;
  body: string;
}

export interface ClientAssets {
  /** A directory holding `assets/…` exactly as Vike writes them. */
  dir: string;
  inserts: { static: Inserts; form: Inserts };
  /** The hash of everything the bundle is built from (templates, configuration, versions). */
  key: string;
  /** Whether they came from the cache. */
  cached: boolean;
}

/**
 * Everything the client bundle depends on: the templates, the build configuration and the
 * installed versions. Pages do not go into it: Vike's assets are the same whatever is on them.
 */
export function bundleKey(): string {
  const hash = createHash('sha256');
  for (const dir of ['templates']) for (const file of walk(fromRoot(dir))) hash.update(`${dir}/${file}\0`).update(readFileSync(fromRoot(dir, file)));
  for (const file of ['package-lock.json', 'cli/build/vike.ts', 'cli/build/client-assets.ts', 'cli/build/bundle-samples.ts'])
    hash.update(`${file}\0`).update(readFileSync(fromRoot(file)));
  return hash.digest('hex').slice(0, 20);
}

/** Where `inserted` differs from `plain` by exactly one insertion after `<head>` and one before `</body>`. */
export function extractInserts(plain: string, inserted: string): Inserts | undefined {
  const headAt = plain.indexOf('<head>') + '<head>'.length;
  const end = '</body></html>';
  if (headAt < 6 || !plain.endsWith(end) || !inserted.endsWith(end) || !inserted.startsWith(plain.slice(0, headAt))) return undefined;
  const middle = plain.slice(headAt, -end.length);
  const rest = inserted.slice(headAt, -end.length);
  const at = rest.indexOf(middle);
  if (at < 0) return undefined;
  const inserts = { head: rest.slice(0, at), body: rest.slice(at + middle.length) };
  return applyInserts(plain, inserts) === inserted ? inserts : undefined;
}

export function applyInserts(html: string, inserts: Inserts): string {
  const headAt = html.indexOf('<head>') + '<head>'.length;
  const bodyAt = html.length - '</body></html>'.length;
  return html.slice(0, headAt) + inserts.head + html.slice(headAt, bodyAt) + inserts.body + html.slice(bodyAt);
}

/**
 * The client bundle (the form's script, the stylesheet) built by Vike from one page of each
 * group, and what Vike adds to each page, learnt by comparing its output with the plain
 * document. Kept under node_modules/.cache by the hash of everything it is built from, so a
 * build whose templates did not change does not bundle again.
 */
export async function clientAssets(
  samples: { static: PageModel; form: PageModel },
  render: (page: PageModel) => string,
  key = bundleKey(),
): Promise<ClientAssets> {
  const dir = join(CACHE_DIR, 'client', key);
  // STUDIO_NO_CACHE=1 bundles afresh (and keeps the result for later builds).
  const cached = process.env.STUDIO_NO_CACHE !== '1' && readCached(key);
  if (cached) return cached;

  const { prerenderWithVike } = await import('./vike.ts');
  mkdirSync(join(CACHE_DIR, 'client'), { recursive: true });
  const work = mkdtempSync(join(CACHE_DIR, 'client', 'build-'));
  try {
    const site = join(work, 'site');
    await prerenderWithVike([samples.static, samples.form], site, () => {});
    const inserts = {} as ClientAssets['inserts'];
    for (const kind of ['static', 'form'] as const) {
      const page = samples[kind];
      const found = extractInserts(render(page), readFileSync(join(site, page.file), 'utf8'));
      if (!found) throw new Error(`Vike changed more of ${page.url} than the stylesheet and script tags; build with --renderer vike`);
      inserts[kind] = found;
    }
    const out = join(work, 'out');
    mkdirSync(out);
    cpSync(join(site, 'assets'), join(out, 'assets'), { recursive: true });
    writeFileSync(join(out, 'inserts.json'), JSON.stringify(inserts));
    // A complete bundle appears under its key in one rename, and is never replaced: another build
    // that finished the same bundle first keeps its own (same key, same bytes), even while read.
    try {
      renameSync(out, dir);
    } catch (error) {
      if (!existsSync(join(dir, 'inserts.json'))) throw error;
    }
    pruneOthers(key);
    return { dir, key, inserts, cached: false };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function readCached(key: string): ClientAssets | undefined {
  const dir = join(CACHE_DIR, 'client', key);
  try {
    return { dir, key, inserts: JSON.parse(readFileSync(join(dir, 'inserts.json'), 'utf8')) as ClientAssets['inserts'], cached: true };
  } catch {
    return undefined;
  }
}

/** A client bundle under way in a process of its own. */
export interface Bundling {
  assets: Promise<ClientAssets>;
  /** Stops it (a build whose content has errors needs no bundle). */
  cancel(): void;
}

/**
 * `clientAssets` for the pages of `bundle-samples.ts`, in a child process: Vite's work runs on
 * the other core while this process validates and resolves the content, and Vite's memory is
 * returned when the child exits. From the cache when it is there, as `clientAssets` does.
 */
export function startClientAssets(key = bundleKey()): Bundling {
  const cached = process.env.STUDIO_NO_CACHE !== '1' && readCached(key);
  if (cached) return { assets: Promise.resolve(cached), cancel: () => {} };
  const { url, execArgv } = cliEntry('client-bundle');
  const child = spawn(process.execPath, [...execArgv, fileURLToPath(url), key], {
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const assets = new Promise<ClientAssets>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const built = code === 0 && readCached(key);
      if (built) resolve({ ...built, cached: false });
      else reject(new Error(`building the client bundle failed (${signal ?? `exit code ${code}`}):\n${stderr.slice(-4000)}`));
    });
  });
  assets.catch(() => {}); // a cancelled bundle is nobody's error
  return { assets, cancel: () => child.kill() };
}

/** Only the newest few bundles are kept, and no half-built one of a process that was stopped. */
function pruneOthers(keep: string): void {
  const root = join(CACHE_DIR, 'client');
  const hourAgo = Date.now() - 3600_000;
  for (const n of readdirSync(root))
    if (n.startsWith('build-') && statSync(join(root, n)).mtimeMs < hourAgo) rmSync(join(root, n), { recursive: true, force: true });
  const others = readdirSync(root)
    .filter((n) => n !== keep && !n.startsWith('build-'))
    .map((n) => ({ path: join(root, n), mtime: statSync(join(root, n)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const o of others.slice(3)) rmSync(o.path, { recursive: true, force: true });
}
