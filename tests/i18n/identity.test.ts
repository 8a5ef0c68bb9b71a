import { describe, expect, it } from 'vitest';
import { isMap, isSeq, parseDocument, visit, type YAMLMap, type YAMLSeq } from 'yaml';
import { checkTranslations } from '../../cli/i18n/check.ts';
import { lockOf } from '../../cli/i18n/translation-lock.ts';
import { type LoadedFile, loadContent } from '../../cli/load/load.ts';
import { parseSource } from '../../cli/load/source.ts';
import { formatPath } from '../../cli/report/problem.ts';
import { isLocalized } from '../../cli/texts/localized-texts.ts';
import { CONTENT } from '../helpers/cli.ts';

/*
 * Everyday edits of every list in every content file, on the shipped content and its
 * translations.yaml (each edited file parsed in memory, nothing written): moving, reordering,
 * inserting and deleting entries leaves every confirmation as it was; an edited Russian text, and
 * only that one, is stale (issue #34).
 */

type Path = (string | number)[];

const loaded = loadContent(CONTENT);
const lock = lockOf(loaded.lock);
const files = loaded.files.filter((f): f is LoadedFile & { source: NonNullable<LoadedFile['source']> } => f.source?.data !== undefined);

/** A translation that waits for a translator, named by what it says (a moved text keeps it). */
interface Waiting {
  code: string;
  path: string;
  /** `file|ru|locale`: the same after an entry moved. */
  text: string;
}

const WAITING = new Set(['stale-translation', 'unconfirmed-translation']);

function waiting(all: LoadedFile[]): Waiting[] {
  const report = checkTranslations(all, lock);
  const byPath = new Map(report.texts.flatMap((t) => Object.keys(t.value).map((l) => [`${t.source.file}#${formatPath([...t.path, l])}`, t] as const)));
  return report.problems
    .filter((p) => WAITING.has(p.code))
    .map((p) => {
      const t = byPath.get(`${p.file}#${p.path}`);
      if (!t) throw new Error(`no text at ${p.file}#${p.path}`);
      return { code: p.code, path: `${p.file}#${p.path}`, text: `${p.file}|${t.value.ru}|${p.locale}` };
    });
}

const before = files.flatMap((f) => waiting([f]));
const waitedBefore = new Map(before.map((w) => [w.text, w.code]));

/**
 * `file` with its text replaced, parsed as `content` would read it. Alone: a text's confirmations
 * are those of its file, so the other files need not be checked again for each edit.
 */
function withText(file: string, text: string): LoadedFile[] {
  const { source, problems } = parseSource(file, Buffer.from(text));
  if (!source || problems.some((p) => p.severity === 'error')) throw new Error(`the edit broke ${file}: ${problems.map((p) => p.message).join('; ')}`);
  return [{ ...files.find((f) => f.source.file === file)!, source }];
}

/** Every list of `data` that holds a text to translate, deepest last. */
function lists(data: unknown, path: Path = []): Path[] {
  const found: Path[] = [];
  const holdsText = (v: unknown): boolean =>
    isLocalized(v) || (Array.isArray(v) ? v.some(holdsText) : Boolean(v) && typeof v === 'object' && Object.values(v as object).some(holdsText));
  if (Array.isArray(data)) {
    if (data.some(holdsText)) found.push(path);
    data.forEach((v, i) => {
      found.push(...lists(v, [...path, i]));
    });
  } else if (data && typeof data === 'object' && !isLocalized(data)) for (const [k, v] of Object.entries(data)) found.push(...lists(v, [...path, k]));
  return found;
}

const IDENTIFYING = ['id', 'path', 'key', 'value'];

/** A copy of an entry under a new name (where it has one), its texts changed when `rewrite`. */
function copyOf(entry: unknown, rewrite: boolean): unknown {
  const copy = (entry as { clone(): unknown }).clone();
  if (isMap(copy)) {
    const field = IDENTIFYING.find((f) => typeof (copy as YAMLMap).get(f) === 'string');
    if (field) copy.set(field, `${copy.get(field)}-added`);
  }
  if (rewrite)
    visit(copy as YAMLMap, {
      Map(_, node) {
        if (!isLocalized(node.toJSON())) return;
        for (const [l, more] of [
          ['ru', ' — новый текст'],
          ['en', ' — a new text'],
          ['de', ' — ein neuer Text'],
        ] as const)
          if (node.has(l)) node.set(l, `${node.get(l)}${more}`);
      },
    });
  return copy;
}

/** The first text inside `node`: its map, to edit its Russian text. */
function firstText(node: unknown): YAMLMap | undefined {
  let found: YAMLMap | undefined;
  visit(node as YAMLMap, {
    Map(_, map) {
      if (found || !isLocalized(map.toJSON())) return undefined;
      found = map;
      return visit.BREAK;
    },
  });
  if (!found && isMap(node) && isLocalized(node.toJSON())) return node;
  return found;
}

interface Edit {
  name: string;
  /** The shortest list it changes. */
  min: number;
  /** Changes the list's items; returns the index of an inserted entry, or of the entry whose Russian text it changed. */
  apply(items: unknown[]): { inserted?: number; edited?: number } | undefined;
}

const EDITS: Edit[] = [
  {
    name: 'reordered',
    min: 2,
    apply: (items) => {
      items.reverse();
      return {};
    },
  },
  {
    name: 'last moved to the top',
    min: 3,
    apply: (items) => {
      items.unshift(items.pop());
      return {};
    },
  },
  {
    name: 'an entry deleted',
    min: 2,
    apply: (items) => {
      items.splice(Math.floor((items.length - 1) / 2), 1);
      return {};
    },
  },
  {
    name: 'a copy inserted',
    min: 1,
    apply: (items) => {
      const at = Math.floor(items.length / 2);
      items.splice(at, 0, copyOf(items[0], false));
      return { inserted: at };
    },
  },
  {
    name: 'a new entry inserted',
    min: 1,
    apply: (items) => {
      const at = Math.floor(items.length / 2);
      items.splice(at, 0, copyOf(items[0], true));
      return { inserted: at };
    },
  },
  {
    name: 'its last entry moved to the top and its Russian text edited',
    min: 1,
    apply: (items) => {
      items.unshift(items.pop());
      const text = firstText(items[0]);
      if (!text) return undefined;
      text.set('ru', `${text.get('ru')} (изменено)`);
      return { edited: 0 };
    },
  },
];

const at = (data: unknown, path: Path) => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], data);

/** `[file, list path, edit]` for every list of every file, each edit where the list is long enough for it. */
const cases = files.flatMap((f) =>
  lists(f.source.data).flatMap((path) =>
    EDITS.filter((e) => (at(f.source.data, path) as unknown[]).length >= e.min).map((edit) => [f.source.file, path, edit] as const),
  ),
);

describe('a confirmed translation stays confirmed while its Russian text is unchanged', () => {
  it('starts from shipped content with nothing stale', () => {
    expect(before.filter((w) => w.code === 'stale-translation')).toEqual([]);
    // Every kind of list-holding file is edited below.
    const edited = new Set(cases.map(([file]) => file.replace(/^(courses|teachers)\/.*/, '$1/')));
    for (const file of ['routes.yaml', 'faq.yaml', 'banners.yaml', 'prices.yaml', 'form.yaml', 'site.yaml', 'legal.yaml', 'schedule.yaml', 'courses/'])
      expect(edited, file).toContain(file);
  });

  it.each(cases.map(([file, path, edit]) => [`${file}#${formatPath(path)}: ${edit.name}`, file, path, edit] as const))('%s', (_, file, path, edit) => {
    const source = files.find((f) => f.source.file === file)!.source;
    const doc = parseDocument(source.text);
    const list = doc.getIn(path, true) as YAMLSeq;
    expect(isSeq(list)).toBe(true);
    const done = edit.apply(list.items);
    if (!done) throw new Error('nothing to edit: the entry holds no text');
    const after = waiting(withText(file, doc.toString({ lineWidth: 0 })));
    const entry = (i: number) => `${file}#${formatPath([...path, i])}`;
    const within = (w: Waiting, i: number | undefined) => i !== undefined && (w.path.startsWith(`${entry(i)}.`) || w.path.startsWith(`${entry(i)}[`));
    // Every other translation is where it was: confirmed, or waiting as before.
    const others = after.filter((w) => !within(w, done.inserted) && !within(w, done.edited));
    expect(others.filter((w) => waitedBefore.get(w.text) !== w.code)).toEqual([]);
    // A new entry's texts wait for a first confirmation; none is stale.
    expect(after.filter((w) => within(w, done.inserted) && w.code !== 'unconfirmed-translation')).toEqual([]);
    if (done.edited !== undefined) {
      const text = firstText((doc.getIn(path, true) as YAMLSeq).items[done.edited])!.toJSON() as Record<string, string>;
      const confirmedBefore = ['en', 'de'].filter((l) => text[l] !== undefined && !waitedBefore.has(`${file}|${text.ru!.replace(/ \(изменено\)$/, '')}|${l}`));
      expect(
        after
          .filter((w) => within(w, done.edited))
          .map((w) => `${w.code} ${w.text.split('|')[2]}`)
          .sort(),
      ).toEqual(confirmedBefore.map((l) => `stale-translation ${l}`).sort());
    }
  });

  it.each(files.map((f) => [f.source.file]))('%s: every map with its keys in the reverse order', (file) => {
    const doc = parseDocument(files.find((f) => f.source.file === file)!.source.text);
    visit(doc, {
      Map(_, map) {
        map.items.reverse();
      },
    });
    const after = waiting(withText(file, doc.toString({ lineWidth: 0 })));
    expect(after.filter((w) => waitedBefore.get(w.text) !== w.code)).toEqual([]);
  });
});
