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
  printReport(log, result.problems, opts.format, {
    sources: result.sources,
    prefix,
    quiet: opts.quiet,
    verbose: opts.verbose,
    fileCount: result.fileCount,
    strict: opts.strict,
    fields: { files: result.fileCount, ...(opts.strict && { strict: true, failed }) },
    allErrors: opts.strict,
  });
  if (opts.format === 'human') log.info(log.paint.dim(`Checked ${result.fileCount} files in ${Math.round(now() - started)} ms.`));
  return failed ? EXIT.content : EXIT.ok;
}
