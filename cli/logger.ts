import { type Paint, paint, useColor } from './report/colors.ts';

/** Where a command writes. Tests pass their own; `json` output goes to `out` only. */
export interface Io {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Whether stderr is an interactive terminal (progress lines). */
  isTTY: boolean;
  /** Whether stdout is an interactive terminal (what a visitor wrote is then shown escaped); absent: not. */
  stdoutIsTTY?: boolean;
  color: boolean;
}

export const processIo = (): Io => ({
  out: (t) => process.stdout.write(`${t}\n`),
  err: (t) => process.stderr.write(`${t}\n`),
  isTTY: Boolean(process.stderr.isTTY),
  stdoutIsTTY: Boolean(process.stdout.isTTY),
  color: useColor(process.stdout),
});

export interface Logger {
  paint: Paint;
  info(message: string): void;
  warn(message: string): void;
  /** Overwrites itself on a terminal; silent otherwise. */
  progress(message: string): void;
  out(text: string): void;
  /** A line for people on stderr, whatever stdout carries (which store a command read). */
  note(message: string): void;
  /** Whether `out` goes to a terminal. */
  outIsTerminal: boolean;
}

export function createLogger(io: Io, options: { quiet?: boolean; json?: boolean } = {}): Logger {
  const p = paint(io.color);
  // With --format json stdout carries only JSON: human messages go to stderr.
  const info = options.json ? io.err : io.out;
  let progressShown = false;
  return {
    paint: p,
    info: (m) => {
      if (progressShown) {
        io.err('\u001b[1A\u001b[2K\u001b[1A');
        progressShown = false;
      }
      info(m);
    },
    warn: (m) => io.err(`${p.yellow('warning')} ${m}`),
    progress: (m) => {
      if (!io.isTTY || options.quiet) return;
      io.err(`${progressShown ? '\u001b[1A\u001b[2K' : ''}${m}`);
      progressShown = true;
    },
    out: io.out,
    note: io.err,
    outIsTerminal: !!io.stdoutIsTTY,
  };
}
