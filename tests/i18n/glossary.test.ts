import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentCopy, runCli } from '../helpers/cli.ts';
import { lineOf } from '../helpers/synthetic.ts';

interface Report {
  problems: { code: string; severity: string; file: string; line: number; column: number; path: string; locale?: string; message: string }[];
}

const i18n = async (dir: string, ...args: string[]) => {
  const r = await runCli(['i18n', '--content', dir, '--format', 'json', ...args]);
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
};

describe('content i18n: the glossary', () => {
  it('finds every term of the shipped content said one way', async () => {
    const c = contentCopy();
    try {
      const r = await i18n(c.dir, '--strict');
      expect(r.report.problems.filter((p) => p.code === 'glossary-term')).toEqual([]);
      expect(r.code).toBe(0);
    } finally {
      c.cleanup();
    }
  });

  it('warns, at the line, when a glossary term is translated another way; --confirm keeps the glossary', async () => {
    const c = contentCopy();
    try {
      const file = join(c.dir, 'faq.yaml');
      const before = readFileSync(file, 'utf8');
      writeFileSync(file, before.replace('de: Gibt es eine Probestunde?', 'de: Gibt es eine Probeeinheit?'));
      const r = await i18n(c.dir);
      expect(r.code).toBe(0);
      const found = r.report.problems.filter((p) => p.code === 'glossary-term');
      expect(found).toEqual([
        expect.objectContaining({
          file: 'faq.yaml',
          line: lineOf(before, 'de: Gibt es eine Probestunde?'),
          path: 'items[1].question.de',
          locale: 'de',
          severity: 'warning',
        }),
      ]);
      expect(found[0]!.message).toContain('"Probestunde"');
      await runCli(['i18n', '--content', c.dir, '--confirm']);
      expect(readFileSync(join(c.dir, 'translations.yaml'), 'utf8')).toContain('use: Probestunde');
      expect((await i18n(c.dir)).report.problems.filter((p) => p.code === 'glossary-term')).toHaveLength(1);
    } finally {
      c.cleanup();
    }
  });
});
