import { checkTranslations, confirm, type I18nReport } from '../i18n/check.ts';
import { LOCK_FILE, lockOf, writeLock } from '../i18n/translation-lock.ts';
import { loadContent } from '../load/load.ts';
import type { Logger } from '../logger.ts';
import type { Paint } from '../report/colors.ts';
import { printReport } from '../report/format-problems.ts';
import { catalogued, countBySeverity, type Problem, sortProblems, UsageError } from '../report/problem.ts';
import { count } from '../report/problems.ts';
import { LOCALES, type Locale } from '../schema/localized.ts';
import { contentPrefix, EXIT } from './common.ts';
import type { I18nOptions } from './usage.ts';

export async function i18nCommand(opts: I18nOptions, log: Logger): Promise<number> {
  const targets = LOCALES.filter((l) => l !== 'ru') as Locale[];
  if (opts.locale && !(targets as string[]).includes(opts.locale))
    throw new UsageError(`Unknown locale "${opts.locale}".`, `Translations are checked for: ${targets.join(', ')} (ru is the source).`);
  const only = opts.locale ? [opts.locale as Locale] : targets;
  const loaded = loadContent(opts.content);
  let lock = lockOf(loaded.lock);
  let report = checkTranslations(loaded.files, lock, only);

  // A file that could not be read (a FIFO, a link out of the content folder, broken YAML, a lock
  // that fails its schema) is an error here too: its texts are missing from the report.
  const read = new Set(loaded.files.flatMap((f) => (f.source?.data !== undefined ? [f.source.file] : [])));
  const unread = [...loaded.problems.filter((p) => p.severity === 'error' && !read.has(p.file)), ...lock.problems.filter((p) => p.severity === 'error')];
  if (opts.confirm) {
    const files = new Set(unread.map((p) => p.file));
    if (files.size) unread.push({ ...catalogued('not-confirmed', { count: count(files.size, 'file') }), file: LOCK_FILE });
    else {
      const confirmed = confirm(report, lock, only);
      try {
        writeLock(opts.content, confirmed);
        lock = { ...lock, ...confirmed };
        log.info(log.paint.green(`Confirmed the current ${only.join(' and ')} translations against the Russian texts (translations.yaml).`));
        report = checkTranslations(loaded.files, lock, only);
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
      if (unconfirmed) log.info(log.paint.dim(`${unconfirmed} translations are not confirmed yet (content i18n --confirm --locale <locale>).`));
    }
  }
  return failed ? EXIT.content : EXIT.ok;
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
        `| ${p.severity === 'error' ? '❌' : '⚠️'} | ${p.locale ?? 'ru'} | \`${prefix}${p.file}:${p.line ?? 1}:${p.column ?? 1}\` | \`${cell(p.path ?? '')}\` | ${cell(p.message)} | ${cell(p.fallback ?? '')} |`,
      );
  }
  return out.join('\n');
}
