/** ANSI colours, only on a terminal and never with NO_COLOR (https://no-color.org). */
export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  if ('NO_COLOR' in process.env && process.env.NO_COLOR !== '') return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}

export type Paint = Record<'red' | 'yellow' | 'green' | 'cyan' | 'dim' | 'bold', (s: string) => string>;

const wrap = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`;

export const paint = (enabled: boolean): Paint =>
  enabled
    ? { red: wrap(31, 39), yellow: wrap(33, 39), green: wrap(32, 39), cyan: wrap(36, 39), dim: wrap(2, 22), bold: wrap(1, 22) }
    : { red: String, yellow: String, green: String, cyan: String, dim: String, bold: String };
