import type { Paint } from '../../report/colors.ts';

/** Where the server's log lines go: anything with a write(line), as pino takes it. */
export interface LogStream {
  write(line: string): void;
}

/** pino's numeric levels, as words. */
const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };

/**
 * The server's log for people on a terminal: each JSON line pino writes (level, time, request
 * id, message) as one short line, `12:04:31 warning … [req-7]`. Off a terminal (a pipe, systemd's
 * journal, a file) the JSON lines are written as they are, for machines. A tiny formatter of
 * our own rather than pino-pretty: that is not a dependency, and this is all it would do here.
 */
export function readableLines(out: (text: string) => void, paint: Paint): LogStream {
  return {
    write(line: string) {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        out(line.replace(/\n$/, ''));
        return;
      }
      const level = LEVELS[Number(entry.level)] ?? 'info';
      const time = new Date(Number(entry.time) || Date.now()).toTimeString().slice(0, 8);
      const mark = level === 'info' ? '' : level === 'warn' ? `${paint.yellow('warning')} ` : `${paint.red(level)} `;
      const id = typeof entry.reqId === 'string' ? paint.dim(` [${entry.reqId}]`) : '';
      out(`${paint.dim(time)} ${mark}${String(entry.msg ?? '')}${id}`);
    },
  };
}
