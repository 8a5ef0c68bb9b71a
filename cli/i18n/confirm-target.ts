import { isAbsolute, relative, resolve } from 'node:path';
import { locate } from '../load/source.ts';
import { LOCALES, type Locale, localeList, TRANSLATED_LOCALES } from '../locales.ts';
import { UsageError } from '../report/problem.ts';
import { didYouMean } from '../util/similar.ts';
import type { TextEntry } from './check.ts';

/** What `content i18n --confirm --file` names: a content file, or one text in it by a line of it. */
export interface ConfirmTarget {
  /** Relative to the content folder, as texts name it: `faq.yaml`. */
  file: string;
  /** The texts confirmed: every text of the file, or the one at `line`. */
  texts: Set<TextEntry>;
  line?: number;
  /** The line is a translation's own (`de: …`): only that locale is meant. */
  locale?: Locale;
}

const AT_LINE = /^(.+?):(\d+)(?::\d+)?$/;

/**
 * Reads `--file content/faq.yaml`, `--file faq.yaml`, or with a line, as `content i18n` and `validate`
 * print a place: `content/faq.yaml:42` or `content/faq.yaml:42:5`. The file is taken relative to the
 * working directory, else to the content folder.
 */
export function confirmTarget(value: string, contentDir: string, texts: readonly TextEntry[]): ConfirmTarget {
  const match = AT_LINE.exec(value);
  const [name, line] = match ? [match[1]!, Number(match[2])] : [value, undefined];
  const files = new Set(texts.map((t) => t.source.file));
  const inside = (path: string) => {
    const rel = relative(resolve(contentDir), path).replaceAll('\\', '/');
    return rel.startsWith('../') || rel === '..' || isAbsolute(rel) ? undefined : rel;
  };
  const file = [inside(resolve(name)), isAbsolute(name) ? undefined : inside(resolve(contentDir, name))].find((f) => f !== undefined && files.has(f));
  if (!file) {
    const guess = inside(resolve(name)) ?? name;
    throw new UsageError(
      `--file ${value}: no content file with texts to translate is called "${name}".`,
      didYouMean(guess, files) ??
        `Name a file of the content folder as content i18n prints it, e.g. ${contentDir.replace(/\/$/, '')}/faq.yaml or ${contentDir.replace(/\/$/, '')}/faq.yaml:12.`,
    );
  }
  const ofFile = texts.filter((t) => t.source.file === file);
  if (line === undefined) return { file, texts: new Set(ofFile) };
  const hits = ofFile.flatMap((t) => {
    const where = lineOf(t, line);
    return where ? [{ t, ...where }] : [];
  });
  if (hits.length !== 1)
    throw new UsageError(
      hits.length
        ? `--file ${value}: line ${line} holds ${hits.length} texts; a line names one.`
        : `--file ${value}: line ${line} is not the line of a text to translate.`,
      `Give the line of a text's ${localeList(LOCALES, 'or')}, as content i18n prints a stale translation's place (${file}:<line>:<column>), or the file alone to confirm all its texts.`,
    );
  const [{ t, locale }] = hits as [{ t: TextEntry; locale?: Locale }];
  return { file, texts: new Set([t]), line, locale };
}

/** The last line a position covers: a block ends at the start of the line after it. */
const lastLine = (p: { line: number; endLine: number; endColumn: number }) => (p.endColumn <= 1 && p.endLine > p.line ? p.endLine - 1 : p.endLine);

/** Whether `line` is in the text `t` (its key, or one of its languages), and if it is a translation's line, whose. */
function lineOf(t: TextEntry, line: number): { locale?: Locale } | undefined {
  const whole = locate(t.source, t.path);
  const key = locate(t.source, t.path, { key: true });
  if (line < Math.min(key.line, whole.line) || line > lastLine(whole)) return undefined;
  for (const locale of TRANSLATED_LOCALES) {
    if (t.value[locale] === undefined) continue;
    const start = locate(t.source, [...t.path, locale], { key: true }).line;
    if (line >= start && line <= lastLine(locate(t.source, [...t.path, locale]))) return { locale };
  }
  return {};
}
