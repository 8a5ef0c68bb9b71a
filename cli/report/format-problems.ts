import { LOCALES } from '../locales.ts';
import { codeFrame } from './code-frame.ts';
import { paint as colours, type Paint } from './colors.ts';
import { countBySeverity, editorPath, type Problem, sortProblems } from './problem.ts';

export type ProblemFormat = 'human' | 'json' | 'github';

export interface FormatOptions {
  paint: Paint;
  /** Source text by file, for code frames. */
  sources?: Map<string, string>;
  /** Shown before file paths in human and github output, e.g. "content/". */
  prefix?: string;
  /** Human output: warnings are left out (only counted). */
  quiet?: boolean;
  /** Human output: every placeholder in full, instead of one line per file. */
  verbose?: boolean;
  /** Files read, for the summary ("in 39 of 44 files"). */
  fileCount?: number;
  /** --strict: warnings fail the run too. */
  strict?: boolean;
}

/** What `report` needs besides the problems; each format reads its own part. */
export interface ReportOptions extends Partial<FormatOptions> {
  /** JSON output: the command's own fields, before the counts and the problems. */
  fields?: Record<string, unknown>;
  /** GitHub output: every problem an error annotation (--strict, where a warning fails the check). */
  allErrors?: boolean;
}

/**
 * The one entry point from problems to what a command prints, in each output format: `human`
 * (for people, on stderr), `json` (one document, on stdout), `github` (workflow commands, on
 * stdout; '' when there are no problems, and then nothing is printed).
 */
export function report(problems: Problem[], format: ProblemFormat, options: ReportOptions = {}): string {
  switch (format) {
    case 'json':
      return formatJson(problems, options.fields);
    case 'github':
      return formatGithub(options.allErrors ? problems.map((p) => ({ ...p, severity: 'error' as const })) : problems, options);
    case 'human':
      return formatHuman(problems, { ...options, paint: options.paint ?? colours(false) });
  }
}

/** Prints `report(problems, format, options)` where that format goes: people's output on the log, the others on stdout. */
export function printReport(
  log: { paint: Paint; info(message: string): void; out(text: string): void },
  problems: Problem[],
  format: ProblemFormat,
  options: ReportOptions = {},
): void {
  const text = report(problems, format, { paint: log.paint, ...options });
  if (format === 'human') log.info(text);
  else if (text) log.out(text);
}

/** The words of a placeholder's place that an editor recognises: `contacts.phone` → phone, `entries[3].day` → day. */
const placeName = (p: Problem) =>
  (p.path ?? '')
    .split(/[.[\]]+/)
    .filter((s) => s && !/^\d+$/.test(s) && !(LOCALES as readonly string[]).includes(s))
    .at(-1) ?? 'file';

/** `age, duration, day ×13` (a name used more than once gets its count). */
function placeNames(list: Problem[]): string {
  const counts = new Map<string, number>();
  for (const p of list) counts.set(placeName(p), (counts.get(placeName(p)) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}

/**
 * One line per file (`content/courses/afc.yaml  9 — age, format, … · on /afk`); when every file of
 * a folder has the very same placeholders on the same kind of page (each teacher's biography), they
 * share a line.
 */
function placeholderRows(placeholders: Problem[], prefix: string, withPlaces: boolean): string[] {
  const perFile = new Map<string, Problem[]>();
  for (const p of placeholders) perFile.set(p.file, [...(perFile.get(p.file) ?? []), p]);
  const dirOf = (file: string) => (file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '');
  const places = (list: Problem[]) => {
    if (!withPlaces) return '';
    const all = [...new Set(list.map((p) => p.where!))];
    // "/afk" is said by "/afk and its card on the home page".
    return ` · on ${all.filter((w) => !all.some((o) => o !== w && o.startsWith(w))).join('; ')}`;
  };
  const rows: { where: string; count: string; names: string }[] = [];
  const same = new Map<string, string[]>();
  const idOf = (file: string, list: Problem[]) => `${dirOf(file)}|${list.length}|${placeNames(list)}${places(list)}`;
  for (const [file, list] of perFile) {
    const id = idOf(file, list);
    same.set(id, [...(same.get(id) ?? []), file]);
  }
  const groups = new Map<string, [string, string, string]>();
  for (const [id, files] of same) {
    const [dir, count, names] = id.split('|') as [string, string, string];
    const all = [...perFile.keys()].filter((f) => f.startsWith(`${dir}/`)).length;
    if (dir && files.length >= 3 && files.length === all) groups.set(id, [`${prefix}${dir}/*.yaml (all ${files.length})`, `${count} each`, names]);
  }
  const done = new Set<string>();
  for (const [file, list] of perFile) {
    const id = idOf(file, list);
    const group = groups.get(id);
    if (!group) rows.push({ where: `${prefix}${file}`, count: String(list.length), names: `${placeNames(list)}${places(list)}` });
    else if (!done.has(id)) {
      done.add(id);
      rows.push({ where: group[0], count: group[1], names: group[2] });
    }
  }
  const width = Math.max(...rows.map((r) => r.where.length));
  const countWidth = Math.max(...rows.map((r) => r.count.length));
  return rows.map((r) => `  ${r.where.padEnd(width)}  ${r.count.padStart(countWidth)} — ${r.names}`);
}

/**
 * Human output: errors in full (place, expected, found, code frame, hint), other warnings in full,
 * placeholders one line per file (all of them with `verbose`), then the summary, which repeats
 * where the first error is.
 */
export function formatHuman(problems: Problem[], options: FormatOptions): string {
  const { paint, sources, prefix = '' } = options;
  const shown = options.quiet ? problems.filter((p) => p.severity === 'error') : problems;
  const grouped = !options.verbose;
  const out: string[] = [];
  const byFile = new Map<string, Problem[]>();
  for (const p of shown) if (!(grouped && p.code === 'placeholder')) byFile.set(p.file, [...(byFile.get(p.file) ?? []), p]);
  for (const [file, list] of byFile) {
    out.push(paint.bold(paint.cyan(`${prefix}${file}`)));
    for (const p of list) {
      const where = p.line ? `${p.line}:${p.column ?? 1}` : '';
      const label = p.severity === 'error' ? paint.red('error') : paint.yellow('warning');
      out.push(`  ${paint.dim(where.padEnd(7))} ${label} ${p.message} ${paint.dim(`[${p.code}]`)}`);
      if (p.severity === 'error' || options.verbose) {
        if (p.path) out.push(`          ${paint.dim('at')}       ${editorPath(p.path)}`);
        if (p.expected) out.push(`          ${paint.dim('expected')} ${p.expected}`);
        if (p.found) out.push(`          ${paint.dim('found')}    ${p.found}`);
      }
      const text = sources?.get(p.file);
      if (text && p.line && p.severity === 'error') {
        const frame = codeFrame(text, p.line, p.column ?? 1, p.endLine === p.line ? p.endColumn : undefined, paint.red);
        out.push(frame.replace(/^/gm, '        '));
      }
      if (p.hint) out.push(`          ${paint.green('hint')}     ${p.hint.replaceAll('\n', '\n                   ')}`);
    }
    out.push('');
  }
  const placeholders = shown.filter((p) => p.code === 'placeholder');
  if (grouped && placeholders.length) {
    // Those a page shows, then those no page shows (issue 38): "shown to visitors" only where someone can read them.
    const onPages = placeholders.filter((p) => p.where !== undefined);
    const nowhere = placeholders.filter((p) => p.where === undefined);
    if (onPages.length) {
      out.push(
        paint.yellow(
          `Placeholders ("TODO: …", shown to visitors as written on the pages named; replace them before publishing${options.verbose ? '' : ', or see each with --verbose'}):`,
        ),
      );
      out.push(...placeholderRows(onPages, prefix, true), '');
    }
    if (nowhere.length) {
      out.push(paint.yellow('Placeholders shown on no page (no visitor reads them yet; fill them in before they are published):'));
      out.push(...placeholderRows(nowhere, prefix, false), '');
    }
  }
  out.push(...summaryLines(problems, paint, options));
  return out.join('\n');
}

/** The last lines: how many errors and warnings, in how many files, and where the first error is. */
export function summaryLines(problems: Problem[], paint: Paint, options: Pick<FormatOptions, 'fileCount' | 'prefix' | 'strict'> = {}): string[] {
  const { errors, warnings } = countBySeverity(problems);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const filesWith = (severity: Problem['severity']) => new Set(problems.filter((p) => p.severity === severity).map((p) => p.file)).size;
  const of = options.fileCount ? ` of ${options.fileCount}` : '';
  const inFiles = (n: number) => (of ? `in ${n}${of} files` : `in ${plural(n, 'file')}`);
  const placeholders = problems.filter((p) => p.code === 'placeholder').length;
  const w = warnings
    ? `${plural(warnings, 'warning')}${placeholders ? ` (${plural(placeholders, 'placeholder')})` : ''} ${inFiles(filesWith('warning'))}`
    : 'no warnings';
  if (errors === 0 && warnings === 0) return [paint.green(`✓ No problems found${options.fileCount ? ` in ${plural(options.fileCount, 'file')}` : ''}.`)];
  const lines: string[] = [];
  if (errors) {
    const first = sortProblems(problems).find((p) => p.severity === 'error')!;
    lines.push(`${paint.red(`✗ ${plural(errors, 'error')}`)} ${inFiles(filesWith('error'))}; ${paint.yellow(w)}.`);
    lines.push(`  First error: ${options.prefix ?? ''}${first.file}${first.line ? `:${first.line}:${first.column ?? 1}` : ''}  ${first.message}`);
  } else if (options.strict) {
    lines.push(`${paint.red(`✗ ${w}`)}, and --strict counts every warning as an error: fix them before publishing.`);
  } else lines.push(`${paint.green('✓ No errors')}; ${paint.yellow(w)}.`);
  return lines;
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
        p.path && `at ${editorPath(p.path)}`,
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
