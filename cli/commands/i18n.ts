import { checkTranslations, type I18nReport } from '../i18n/check.ts';
import { type ConfirmTarget, confirmTarget } from '../i18n/confirm-target.ts';
import { confirmTexts } from '../i18n/confirmations.ts';
import { LOCK_FILE, lockOf, writeLock } from '../i18n/translation-lock.ts';
import { loadContent } from '../load/load.ts';
import { DEFAULT_LOCALE, type Locale, TRANSLATED_LOCALES } from '../locales.ts';
import type { Logger } from '../logger.ts';
import type { Paint } from '../report/colors.ts';
import { printReport } from '../report/format-problems.ts';
import { catalogued, countBySeverity, type Problem, sortProblems, UsageError } from '../report/problem.ts';
import { count } from '../report/problems.ts';
import { contentPrefix, EXIT } from './common.ts';
import type { I18nOptions } from './usage.ts';

export async function i18nCommand(opts: I18nOptions, log: Logger): Promise<number> {
  const targets: Locale[] = [...TRANSLATED_LOCALES];
  if (opts.locale && !(targets as string[]).includes(opts.locale))
    throw new UsageError(`Unknown locale "${opts.locale}".`, `Translations are checked for: ${targets.join(', ')} (${DEFAULT_LOCALE} is the source).`);
  if (opts.file && !opts.confirm)
    throw new UsageError('--file names what --confirm records.', 'Add --confirm to record that you checked the translations of that file or line.');
  const only = opts.locale ? [opts.locale as Locale] : targets;
  const loaded = loadContent(opts.content);
  const lock = lockOf(loaded.lock);
  let report = checkTranslations(loaded.files, lock, only);

  // A file that could not be read (a FIFO, a link out of the content folder, broken YAML, a lock
  // that fails its schema) is an error here too: its texts are missing from the report.
  const read = new Set(loaded.files.flatMap((f) => (f.source?.data !== undefined ? [f.source.file] : [])));
  const unread = [...loaded.problems.filter((p) => p.severity === 'error' && !read.has(p.file)), ...lock.problems.filter((p) => p.severity === 'error')];
  if (opts.confirm) {
    const files = new Set(unread.map((p) => p.file));
    if (files.size) unread.push({ ...catalogued('not-confirmed', { count: count(files.size, 'file') }), file: LOCK_FILE });
    else {
      const { target, locales } = confirmScope(opts, report, only);
      const confirmed = confirmTexts(report.lock, report.texts, { locales, file: target?.file, only: target?.line ? target.texts : undefined });
      try {
        // Written also when nothing new is confirmed: an earlier translations.yaml (by position) is then written by identity.
        writeLock(opts.content, confirmed.lock);
        log.info(log.paint.green(confirmedMessage(target, locales, confirmed.count, contentPrefix(opts.content))));
        report = checkTranslations(loaded.files, { ...lock, ...confirmed.lock }, only);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        const problem =
          code === 'ENOSPC' ? catalogued('lock-not-written', {}, { variant: 'diskFull' }) : catalogued('lock-not-written', { reason: code ?? String(error) });
        unread.push({ ...problem, file: LOCK_FILE });
      }
    }
  }

  // Under --strict a missing or stale translation fails the check (what CI runs).
  const problems = sortProblems(
    [...unread, ...report.problems].map(
      (p): Problem => (opts.strict && (p.code === 'missing-translation' || p.code === 'stale-translation') ? { ...p, severity: 'error' } : p),
    ),
  );
  const failed = problems.some((p) => p.severity === 'error');
  const prefix = contentPrefix(opts.content);

  switch (opts.format) {
    case 'json':
    case 'github':
      printReport(log, problems, opts.format, { prefix, fields: { locales: report.locales, strict: Boolean(opts.strict) } });
      break;
    case 'markdown':
      log.out(markdown(report, problems, prefix));
      break;
    default: {
      const shown = opts.quiet ? problems.filter((p) => p.severity === 'error') : problems.filter((p) => p.code !== 'unconfirmed-translation');
      if (shown.length) printReport(log, shown, 'human', { prefix });
      log.info(coverageTable(report, log.paint));
      const unconfirmed = problems.filter((p) => p.code === 'unconfirmed-translation').length;
      if (unconfirmed)
        log.info(log.paint.dim(`${unconfirmed} translations are not confirmed yet (content i18n --confirm --file <file>[:line], or --locale <locale>).`));
      if (report.byPosition)
        log.info(
          log.paint.dim(
            `translations.yaml names ${report.byPosition} confirmations by position (its earlier form): they were taken for the texts at those places now; the next --confirm writes them by identity.`,
          ),
        );
    }
  }
  return failed ? EXIT.content : EXIT.ok;
}

/** What `--confirm` records: the texts `--file` names (all, without it) in the languages meant. */
function confirmScope(opts: I18nOptions, report: I18nReport, only: Locale[]): { target?: ConfirmTarget; locales: Locale[] } {
  const target = opts.file ? confirmTarget(opts.file, opts.content, report.texts) : undefined;
  if (target?.locale && opts.locale && target.locale !== opts.locale)
    throw new UsageError(
      `--file ${opts.file} is a line of the ${target.locale} translation, and --locale says ${opts.locale}.`,
      'Leave out --locale, or give the line of the text itself or of its ru.',
    );
  return { target, locales: target?.locale ? [target.locale] : only };
}

/** What --confirm recorded, in a line. */
function confirmedMessage(target: ConfirmTarget | undefined, locales: Locale[], n: number, prefix: string): string {
  const languages = locales.join(' and ');
  if (!target) return `Confirmed the current ${languages} translations against the Russian texts (translations.yaml).`;
  const where = `${prefix}${target.file}${target.line ? `:${target.line}` : ''}`;
  if (!n) return `Nothing to confirm at ${where}: it has no ${languages} translation.`;
  return `Confirmed ${n} translation${n === 1 ? '' : 's'} (${locales.join(', ')}) of ${where} against ${target.line ? 'its Russian text' : 'their Russian texts'} (translations.yaml).`;
}

function coverageTable(report: I18nReport, paint: Paint): string {
  const rows = Object.entries(report.locales).map(([l, c]) => {
    const pct = `${c.coverage.toFixed(1)}%`;
    return `  ${l.padEnd(6)} ${String(c.total).padStart(6)} ${String(c.translated).padStart(10)} ${String(c.missing).padStart(7)} ${String(c.stale).padStart(5)}  ${c.missing ? paint.yellow(pct) : paint.green(pct)}`;
  });
  return [paint.bold('  locale  total translated missing stale  coverage'), ...rows].join('\n');
}

const cell = (s: string) => s.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** A report a CI job can post as a pull-request comment or write to the job summary. */
function markdown(report: I18nReport, problems: Problem[], prefix: string): string {
  const out = ['## Translations', '', '| Locale | Total | Translated | Missing | Stale | Coverage |', '|---|---:|---:|---:|---:|---:|'];
  for (const [l, c] of Object.entries(report.locales))
    out.push(`| ${l} | ${c.total} | ${c.translated} | ${c.missing} | ${c.stale} | ${c.coverage.toFixed(1)}% |`);
  const listed = problems.filter((p) => p.code !== 'unconfirmed-translation');
  const { errors, warnings } = countBySeverity(listed);
  out.push('');
  if (!listed.length) out.push('All texts are translated and up to date. ✅');
  else {
    out.push(
      `${errors} error(s), ${warnings} warning(s).`,
      '',
      '| | Locale | Where | Path | Problem | Russian text shown instead |',
      '|---|---|---|---|---|---|',
    );
    for (const p of listed)
      out.push(
        `| ${p.severity === 'error' ? '❌' : '⚠️'} | ${p.locale ?? DEFAULT_LOCALE} | \`${prefix}${p.file}:${p.line ?? 1}:${p.column ?? 1}\` | \`${cell(p.path ?? '')}\` | ${cell(p.message)} | ${cell(p.fallback ?? '')} |`,
      );
  }
  return out.join('\n');
}
