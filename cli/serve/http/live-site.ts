import { existsSync, statSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../../../templates/model.ts';
import { UsageError } from '../../report/problem.ts';
import { type EnquiryManifest, MANIFEST_FILE, readManifest } from '../manifest.ts';
import { createStaticHandler, hasControl, localPath } from './static.ts';

/** One build of the site as the server uses it: its pages and its form rules, always together. */
export interface SiteBuild {
  /** The form rules: the manifest of this build, its options joined by those of the build before (pages of it may still be open). */
  manifest: EnquiryManifest;
  /** The thank-you page of each locale, as a safe Location. */
  thanks: Record<Locale, string>;
  serve: (request: FastifyRequest, reply: FastifyReply) => unknown;
}

/**
 * The built site a running server serves, following rebuilds. `content build` swaps a finished
 * site in with a rename (cli/write/atomic-dir.ts), so a new build is a new directory at the
 * same path: each request looks at which directory the path names now (one stat), and when it
 * changed, reads that build's manifest and serves its pages from then on, both at once. So the
 * pages a visitor gets and the rules the enquiry is checked by always come from the same build.
 * A rebuild that left no usable manifest keeps the last good build's rules and says so.
 *
 * The endpoint and the locales are the ones the server started with (fastify's routes are fixed
 * once it listens): a rebuild that changes them needs a restart, and the server says so.
 */
/**
 * Where the server keeps the course options of the builds it served, so that a restart still
 * accepts the options of the build before (a page of it may still be open in a browser).
 */
export interface OptionsMemory {
  recall(): { current: EnquiryManifest['options']; before: EnquiryManifest['options'] } | undefined;
  remember(options: { current: EnquiryManifest['options']; before: EnquiryManifest['options'] }): void;
}

export class LiveSite {
  private build: SiteBuild;
  /** The options of the build served now and of the one before it (without each other's). */
  private options: { current: EnquiryManifest['options']; before: EnquiryManifest['options'] } = { current: [], before: [] };
  private identity: string;
  /** A build whose manifest could not be used: not read again at every request. */
  private refused: string | undefined;

  constructor(
    private readonly dir: string,
    private readonly given: string,
    private readonly exclude: string[],
    private readonly warn: (message: string) => void = () => {},
    private readonly memory?: OptionsMemory,
  ) {
    if (!existsSync(dir)) throw new UsageError(`there is no built site in ${given}`, 'run "content build" first');
    this.identity = identityOf(dir) ?? '';
    this.build = this.load(undefined);
  }

  /** The build the site's path names now. */
  get current(): SiteBuild {
    const now = identityOf(this.dir);
    // Between the two renames of a swap the path names nothing for a moment: the last build is served meanwhile.
    if (now && now !== this.identity && now !== this.refused) {
      try {
        this.build = this.load(this.build);
        this.identity = now;
      } catch (error) {
        // Gone again while it was read (another swap): tried again at the next request.
        if (identityOf(this.dir) !== now) return this.build;
        this.refused = now;
        this.warn(`the site in ${this.given} was rebuilt, but ${(error as Error).message}; the form rules of the previous build stay in use`);
      }
    }
    return this.build;
  }

  /** What the memory holds, if it can be read (a store that cannot be read now remembers nothing). */
  private recall(): ReturnType<OptionsMemory['recall']> {
    try {
      return this.memory?.recall();
    } catch {
      return undefined;
    }
  }

  private load(previous: SiteBuild | undefined): SiteBuild {
    const manifest = readManifest(this.dir);
    if (!manifest) throw new UsageError(`${this.given} has no ${MANIFEST_FILE} from this version of "content build"`, 'run "content build" again');
    const thanks = thanksOf(manifest, this.given);
    if (previous && (previous.manifest.endpoint !== manifest.endpoint || previous.manifest.locales.join() !== manifest.locales.join()))
      this.warn(`the rebuilt site in ${this.given} has another form endpoint or other languages: restart "content serve" to use them`);
    const same = (a: EnquiryManifest['options'], b: EnquiryManifest['options']) => JSON.stringify(a) === JSON.stringify(b);
    // The build before: the one served until now, or after a restart the one the store remembers.
    const remembered = previous ? undefined : this.recall();
    const before = previous
      ? this.options.current
      : remembered && !same(remembered.current, manifest.options)
        ? remembered.current
        : (remembered?.before ?? []);
    this.options = { current: manifest.options, before };
    try {
      this.memory?.remember(this.options);
    } catch (error) {
      this.warn(`could not remember the form's options for a restart: ${(error as Error).message}`);
    }
    const known = new Set(manifest.options.map((o) => o.value));
    const options = [...manifest.options, ...before.filter((o) => !known.has(o.value))];
    const serve = createStaticHandler(this.dir, manifest.locales, { exclude: this.exclude });
    return { manifest: { ...manifest, options }, thanks, serve };
  }
}

/** Which directory a path names (a rebuild renames a new one in; a deployment may re-point a symlink): device and inode. */
function identityOf(dir: string): string | undefined {
  try {
    const st = statSync(dir);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/** A build's thank-you addresses as Locations: paths on this site, percent-encoded. */
function thanksOf(manifest: EnquiryManifest, given: string): Record<Locale, string> {
  const thanks = { ...manifest.thanks };
  for (const [locale, path] of Object.entries(manifest.thanks) as [Locale, string][]) {
    if (typeof path !== 'string' || !/^\/(?![/\\])/.test(path) || hasControl(path))
      throw new UsageError(`${given}/${MANIFEST_FILE}: the thank-you address for ${locale} is not a path on this site`, 'run "content build" again');
    thanks[locale] = localPath(path.split('/'));
  }
  return thanks;
}
