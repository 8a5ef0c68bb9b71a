import type { Logger } from '../logger.ts';
import type { CommonOptions } from '../main.ts';

export interface DevOptions extends CommonOptions {
  host: string;
  port: number;
}

/** Runs until interrupted; resolves with the exit code when the server stops. */
export async function devCommand(opts: DevOptions, log: Logger): Promise<number> {
  const { startDevServer } = await import('../dev/dev-server.ts');
  const dev = await startDevServer({
    content: opts.content,
    host: opts.host,
    port: opts.port,
    onRebuild: ({ ok, ms, problems }) => {
      const errors = problems.filter((p) => p.severity === 'error').length;
      log.info(
        ok ? log.paint.green(`✓ content ok (${ms} ms)`) : log.paint.red(`✗ ${errors} error${errors === 1 ? '' : 's'} in the content: the preview shows them`),
      );
    },
  });
  log.info(`Preview: ${dev.url}  (ru)   ${dev.url}/en   ${dev.url}/de — pages reload when you save a file in ${opts.content}/`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await dev.close();
  return 0;
}
