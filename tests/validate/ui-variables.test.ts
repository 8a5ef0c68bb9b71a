import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UI_KEYS, UI_VARIABLES } from '../../cli/schema/ui-keys.ts';
import { ROOT } from '../helpers/cli.ts';

/**
 * The variables validate holds every UI text to (UI_VARIABLES, cli/schema/ui-keys.ts) are the ones
 * the code fills in, read here from the code itself: the resolver's `ux('key', { name: … })` calls
 * (i18next interpolation) and the form's `.replace('{{name}}', …)` of a label (the enquiry form, in
 * the browser and on the server). A call that passes a new variable, or stops passing one, fails
 * this test until the declaration says the same, so a text is never checked against names the
 * site does not fill (issue #34).
 */

const sources = (dir: string) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => readFileSync(join(ROOT, dir, f), 'utf8'));

/** Each UI key with the variables the code passes to it (a plural family under its name without suffix). */
function passedByCode(): Record<string, string[]> {
  const passed = new Map<string, Set<string>>();
  const add = (key: string, names: string[]) => {
    const set = passed.get(key) ?? new Set<string>();
    for (const n of names) set.add(n);
    passed.set(key, set);
  };
  const formKeys = UI_KEYS.form.map((k) => k.replace(/_(one|few|many|other)$/, ''));
  for (const text of [...sources('cli'), ...sources('templates')]) {
    // ux('prices.fromAmount', { amount: money(p.amount) }), ux('prices.lessons' as UiKey, { count: n })
    for (const m of text.matchAll(/\bux\(\s*'([\w.]+)'(?:\s+as\s+UiKey)?\s*,\s*\{([^}]*)\}/g))
      add(
        m[1]!,
        m[2]!
          .split(',')
          .map((p) => p.split(':')[0]!.trim())
          .filter(Boolean),
      );
    // labels.errorTooLong.text.replace('{{max}}', …): the label named in the lines up to the call.
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(/\.replace\('\{\{(\w+)\}\}'/g)) {
        const before = lines.slice(Math.max(0, i - 4), i + 1).join('\n');
        const label = formKeys.filter((k) => new RegExp(`\\b${k}\\b`).test(before)).at(-1);
        expect(label, `the label filled in by "${line.trim()}"`).toBeDefined();
        add(`form.${label}`, [m[1]!]);
      }
    });
  }
  return Object.fromEntries([...passed].map(([k, v]) => [k, [...v].sort()]));
}

describe('UI_VARIABLES', () => {
  it('are the variables the code fills into each UI text, no more, no fewer', () => {
    const declared = Object.fromEntries(Object.entries(UI_VARIABLES).map(([k, v]) => [k, [...v].sort()]));
    expect(passedByCode()).toEqual(declared);
  });
});
