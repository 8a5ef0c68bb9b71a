import { waitingTranslations } from '../i18n/check.ts';
import { lockOf } from '../i18n/translation-lock.ts';
import { ParseMemo } from '../incremental/parse-memo.ts';
import type { Logger } from '../logger.ts';
import { printReport } from '../report/format-problems.ts';
import { FILE_CHECKS, validateContent } from '../validate/validate.ts';
import { contentPrefix, EXIT } from './common.ts';
import type { ValidateOptions } from './usage.ts';

/** Milliseconds by the process's clock: the global `performance` would load node:perf_hooks first, a few ms of a run of 50. */
const now = () => Number(process.hrtime.bigint()) / 1e6;

export async function validateCommand(opts: ValidateOptions, log: Logger): Promise<number> {
  const started = now();
  // What an earlier run read and checked: only the files changed since are read again.
  const known = ParseMemo.open(opts.content);
  const result = validateContent(opts.content, { today: opts.today, known });
  known?.save(FILE_CHECKS);
  const prefix = contentPrefix(opts.content);
  const failed = !result.ok || (opts.strict === true && result.problems.length > 0);
  // What `content i18n --strict` (CI) would fail on besides: an editor who changed a Russian text hears it here.
  const lock = lockOf(result.loaded.lock);
  const translations = lock.unreadable ? undefined : waitingTranslations(result.loaded.files, lock);
  const waiting = translations ? translations.stale + translations.missing + translations.unconfirmed : 0;
  printReport(log, result.problems, opts.format, {
    sources: result.sources,
    prefix,
    quiet: opts.quiet,
    verbose: opts.verbose,
    fileCount: result.fileCount,
    strict: opts.strict,
    fields: { files: result.fileCount, ...(opts.strict && { strict: true, failed }), ...(translations && { translations }) },
    allErrors: opts.strict,
  });
  if (waiting && opts.format === 'github') log.out(`::notice title=translations::${waitingLine(translations!)}`);
  if (waiting && opts.format === 'human') log.info(log.paint.yellow(waitingLine(translations!)));
  if (opts.format === 'human') log.info(log.paint.dim(`Checked ${result.fileCount} files in ${Math.round(now() - started)} ms.`));
  return failed ? EXIT.content : EXIT.ok;
}

/** `3 translations wait for a check (2 stale: their Russian text changed; 1 missing): see them with "content i18n".` */
function waitingLine(t: { stale: number; missing: number; unconfirmed: number }): string {
  const n = t.stale + t.missing + t.unconfirmed;
  const parts = [
    t.stale && `${t.stale} stale: the Russian text changed`,
    t.missing && `${t.missing} missing`,
    t.unconfirmed && `${t.unconfirmed} not confirmed yet`,
  ].filter(Boolean);
  return `${n} translation${n === 1 ? '' : 's'} wait${n === 1 ? 's' : ''} for a check (${parts.join('; ')}): see them with "content i18n".`;
}
