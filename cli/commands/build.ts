import { resolve } from 'node:path';
import type { BuildSummary } from '../build-site.ts';
import type { Logger } from '../logger.ts';
import { printReport, type ReportOptions, summaryLines } from '../report/format-problems.ts';
import type { Problem } from '../report/problem.ts';
import type { BannerExpiry } from '../resolve/banner-dates.ts';
import { validateContent } from '../validate/validate.ts';
import { contentPrefix, EXIT } from './common.ts';
import type { BuildCommandOptions } from './usage.ts';

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

export async function buildCommand(opts: BuildCommandOptions, log: Logger): Promise<number> {
  const prefix = contentPrefix(opts.content);
  const show = (problems: Problem[], options: ReportOptions) =>
    printReport(log, problems, opts.format, { prefix, quiet: opts.quiet, verbose: opts.verbose, strict: opts.strict, ...options });
  if (opts.strict) {
    // The publishing gate: nothing is written while any warning is left.
    const checked = validateContent(opts.content, { today: opts.today });
    if (checked.problems.length) {
      show(checked.problems, { sources: checked.sources, fileCount: checked.fileCount, fields: { built: false, strict: true }, allErrors: true });
      if (opts.format === 'human')
        log.info(log.paint.red(`Build refused (--strict): the content still has ${checked.ok ? 'warnings' : 'errors'}. ${opts.out}/ was left as it was.`));
      return EXIT.content;
    }
  }
  const { buildSite } = await import('../build-site.ts');
  const result = await buildSite({
    content: opts.content,
    out: resolve(opts.out),
    baseUrl: opts.baseUrl,
    today: opts.today,
    renderer: opts.renderer,
    onProgress: (done, total) => log.progress(`Rendering pages ${done}/${total}`),
  });
  if (opts.format !== 'human') show(result.problems, { fields: result.ok ? { summary: result.summary } : { built: false } });
  else if (!result.ok) {
    show(result.problems, { sources: result.sources });
    log.info(log.paint.red(`Build stopped: the content has errors. ${opts.out}/ was left as it was.`));
  } else {
    for (const note of result.summary.notes ?? []) log.warn(note);
    if (result.problems.length) log.info(`${summaryLines(result.problems, log.paint).join('\n')} Run "content validate" to see them.`);
    log.info(summaryText(result.summary, opts.out, log));
  }
  return result.ok ? EXIT.ok : EXIT.content;
}

function summaryText(s: BuildSummary, out: string, log: Logger): string {
  const locales = Object.keys(s.pagesPerLocale);
  return [
    log.paint.green(
      `✓ Built ${s.pages} pages into ${out}/ in ${(s.ms / 1000).toFixed(1)} s${s.rendered !== undefined && s.rendered < s.pages ? ` (${s.rendered} rendered, ${s.pages - s.rendered} unchanged)` : ''}.`,
    ),
    `  pages per locale     ${locales.map((l) => `${l} ${s.pagesPerLocale[l]}`).join(', ')}`,
    `  Russian fallbacks    ${locales.map((l) => `${l} ${s.fallbacksPerLocale[l] ?? 0}`).join(', ')}${Object.values(s.fallbacksPerLocale).some(Boolean) ? '  (run "content i18n")' : ''}`,
    `  total size           ${kb(s.totalBytes)}`,
    `  largest page         ${s.largestPage.file}: ${kb(s.largestPage.bytes)} (${kb(s.largestPage.gzipBytes)} gzipped)`,
    `  JavaScript per page  with the form ${kb(s.jsPerPage.withForm)} gzipped, without it ${kb(s.jsPerPage.withoutForm)}`,
    ...(s.images && s.images.encoded + s.images.reused + s.images.cardsDrawn + s.images.cardsReused ? [imagesLine(s.images)] : []),
    ...(s.nextBannerExpiry ? [bannerLine(s.nextBannerExpiry)] : []),
  ].join('\n');
}

/** What the build's cache spared: a warm build draws only the cards and pictures that changed. */
function imagesLine(i: NonNullable<BuildSummary['images']>): string {
  return `  pictures and cards   ${i.encoded} picture files made, ${i.reused} from the cache; ${i.cardsDrawn} share cards drawn, ${i.cardsReused} from the cache`;
}

/** Pages do not change by themselves: a banner past its last day stays online until the next build. */
function bannerLine(e: BannerExpiry): string {
  return `  next banner expiry   "${e.banner}" is shown until ${e.lastDay}: rebuild on or after ${e.rebuildOnOrAfter} (docs/deploy.md: the daily rebuild)`;
}
