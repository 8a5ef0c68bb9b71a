import { countBySeverity, type Problem } from '../core/problem.ts';
import { codeFrame } from './code-frame.ts';
import type { Paint } from './colors.ts';

export type ProblemFormat = 'human' | 'json' | 'github';

export interface FormatOptions {
  paint: Paint;
  /** Source text by file, for code frames. */
  sources?: Map<string, string>;
  /** Shown before file paths in human and github output, e.g. "content/". */
  prefix?: string;
  /** Human output: warnings are summarised, not listed. */
  quiet?: boolean;
}

/** Human output: grouped by file, each problem with its code frame, then one summary line. */
export function formatHuman(problems: Problem[], options: FormatOptions): string {
  const { paint, sources, prefix = '' } = options;
  const shown = options.quiet ? problems.filter((p) => p.severity === 'error') : problems;
  const out: string[] = [];
  const byFile = new Map<string, Problem[]>();
  for (const p of shown) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  for (const [file, list] of byFile) {
    out.push(paint.bold(paint.cyan(`${prefix}${file}`)));
    for (const p of list) {
      const where = p.line ? `${p.line}:${p.column ?? 1}` : '';
      const label = p.severity === 'error' ? paint.red('error') : paint.yellow('warning');
      out.push(`  ${paint.dim(where.padEnd(7))} ${label} ${p.message} ${paint.dim(`[${p.code}]`)}`);
      if (p.path) out.push(`          ${paint.dim('at')} ${file} → ${p.path}`);
      if (p.expected) out.push(`          ${paint.dim('expected')} ${p.expected}`);
      if (p.found) out.push(`          ${paint.dim('found')}    ${p.found}`);
      const text = sources?.get(p.file);
      if (text && p.line && p.severity === 'error') {
        const frame = codeFrame(text, p.line, p.column ?? 1, p.endLine === p.line ? p.endColumn : undefined, paint.red);
        out.push(frame.replace(/^/gm, '        '));
      }
      if (p.hint) out.push(`          ${paint.green('hint')}     ${p.hint}`);
    }
    out.push('');
  }
  out.push(summaryLine(problems, paint));
  return out.join('\n');
}

export function summaryLine(problems: Problem[], paint: Paint): string {
  const { errors, warnings } = countBySeverity(problems);
  const files = new Set(problems.map((p) => p.file)).size;
  const e = `${errors} error${errors === 1 ? '' : 's'}`;
  const w = `${warnings} warning${warnings === 1 ? '' : 's'}`;
  if (errors === 0 && warnings === 0) return paint.green('✓ No problems found.');
  return `${errors ? paint.red(`✗ ${e}`) : paint.green(`✓ ${e}`)}, ${warnings ? paint.yellow(w) : w} in ${files} file${files === 1 ? '' : 's'}.`;
}

/** One JSON document: the problems and their counts. Nothing else goes to stdout. */
export function formatJson(problems: Problem[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...extra, ...countBySeverity(problems), problems }, null, 2);
}

const escapeData = (s: string) => s.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
const escapeProperty = (s: string) => escapeData(s).replaceAll(':', '%3A').replaceAll(',', '%2C');

/** GitHub Actions workflow commands: annotations on the changed lines of a pull request. */
export function formatGithub(problems: Problem[], options: Pick<FormatOptions, 'prefix'> = {}): string {
  return problems
    .map((p) => {
      const props = [`file=${escapeProperty(`${options.prefix ?? ''}${p.file}`)}`];
      if (p.line) props.push(`line=${p.line}`, `col=${p.column ?? 1}`);
      if (p.endLine) props.push(`endLine=${p.endLine}`);
      props.push(`title=${escapeProperty(p.code)}`);
      const details = [
        p.message,
        p.path && `at ${p.path}`,
        p.expected && `expected: ${p.expected}`,
        p.found && `found: ${p.found}`,
        p.hint && `hint: ${p.hint}`,
      ]
        .filter(Boolean)
        .join('\n');
      return `::${p.severity} ${props.join(',')}::${escapeData(details)}`;
    })
    .join('\n');
}
