import type { Logger } from '../logger.ts';
import { formatGithub, formatHuman, formatJson } from '../report/format-problems.ts';
import { validateContent } from '../validate/validate.ts';
import { contentPrefix, EXIT } from './common.ts';
import type { ValidateOptions } from './usage.ts';

/** Milliseconds by the process's clock: the global `performance` would load node:perf_hooks first, a few ms of a run of 50. */
const now = () => Number(process.hrtime.bigint()) / 1e6;

export async function validateCommand(opts: ValidateOptions, log: Logger): Promise<number> {
  const started = now();
  const result = validateContent(opts.content, { today: opts.today });
  const prefix = contentPrefix(opts.content);
  const failed = !result.ok || (opts.strict === true && result.problems.length > 0);
  if (opts.format === 'json') log.out(formatJson(result.problems, { files: result.fileCount, ...(opts.strict && { strict: true, failed }) }));
  else if (opts.format === 'github') {
    const text = formatGithub(opts.strict ? result.problems.map((p) => ({ ...p, severity: 'error' as const })) : result.problems, { prefix });
    if (text) log.out(text);
  } else {
    log.info(
      formatHuman(result.problems, {
        paint: log.paint,
        sources: result.sources,
        prefix,
        quiet: opts.quiet,
        verbose: opts.verbose,
        fileCount: result.fileCount,
        strict: opts.strict,
      }),
    );
    log.info(log.paint.dim(`Checked ${result.fileCount} files in ${Math.round(now() - started)} ms.`));
  }
  return failed ? EXIT.content : EXIT.ok;
}
