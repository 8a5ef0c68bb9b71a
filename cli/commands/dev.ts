import type { Logger } from '../logger.ts';
import { report as problemReport } from '../report/format-problems.ts';
import { contentPrefix } from './common.ts';
import type { DevOptions } from './usage.ts';

/** Runs until interrupted; resolves with the exit code when the server stops. */
export async function devCommand(opts: DevOptions, log: Logger): Promise<number> {
  const { startDevServer } = await import('../dev/dev-server.ts');
  const prefix = contentPrefix(opts.content);
  let last = '';
  const dev = await startDevServer({
    content: opts.content,
    host: opts.host,
    port: opts.port,
    prefix: prefix || './',
    onRebuild: ({ ok, ms, problems, sources }) => {
      // The errors in full, as `validate` prints them (warnings only counted); the same report is not printed twice.
      const report = ok
        ? log.paint.green(`✓ content ok (${ms} ms)`)
        : `${problemReport(problems, 'human', { paint: log.paint, sources, prefix, quiet: true })}\nThe preview shows these errors until you fix them and save.`;
      if (report !== last) log.info(report);
      last = report;
    },
  });
  log.info(`Preview: ${dev.url}  (ru)   ${dev.url}/en   ${dev.url}/de — pages reload when you save a file in ${opts.content}/`);
  await new Promise<void>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve());
    // Started through npx (npm, then sh), a signal to npx may not reach this process; when its parent is gone, stop too.
    const parent = process.ppid;
    const orphaned = setInterval(() => {
      if (process.ppid !== parent) resolve();
    }, 500);
    orphaned.unref();
  });
  await dev.close();
  return 0;
}
