import { validateContent } from '../core/validate.ts';
import type { Logger } from '../logger.ts';
import type { CommonOptions } from '../main.ts';
import { EXIT } from '../main.ts';
import { formatGithub, formatHuman, formatJson } from '../report/format-problems.ts';
import { contentPrefix } from './shared.ts';

export async function validateCommand(opts: CommonOptions & { today?: string }, log: Logger): Promise<number> {
  const started = performance.now();
  const result = validateContent(opts.content, { today: opts.today });
  const prefix = contentPrefix(opts.content);
  if (opts.format === 'json') log.out(formatJson(result.problems, { files: result.fileCount }));
  else if (opts.format === 'github') {
    const text = formatGithub(result.problems, { prefix });
    if (text) log.out(text);
  } else {
    log.info(formatHuman(result.problems, { paint: log.paint, sources: result.sources, prefix, quiet: opts.quiet }));
    log.info(log.paint.dim(`Checked ${result.fileCount} files in ${Math.round(performance.now() - started)} ms.`));
  }
  return result.ok ? EXIT.ok : EXIT.content;
}
