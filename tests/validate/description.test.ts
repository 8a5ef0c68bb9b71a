import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { contentCopy, FIXTURE, runCli } from '../helpers/cli.ts';
import { lineOf } from '../helpers/synthetic.ts';

interface Problem {
  code: string;
  severity: string;
  file: string;
  line: number;
  path: string;
}

const validate = async (dir: string) => {
  const r = await runCli(['validate', '--content', dir, '--format', 'json']);
  return { code: r.code, problems: (JSON.parse(r.stdout) as { problems: Problem[] }).problems };
};
const routes = readFileSync(join(FIXTURE, 'routes.yaml'), 'utf8');
const faqDe = /^ {4}de: '(Antworten auf häufige Fragen[^']*)'$/m.exec(routes)![1]!;
const indexOf = (path: string) => (parse(routes) as { routes: { path: string }[] }).routes.findIndex((r) => r.path === path);

describe('validate: page descriptions', () => {
  it('has every shipped description whole and within what search engines show', async () => {
    const { problems } = await validate(FIXTURE);
    expect(problems.filter((p) => p.code.startsWith('description-'))).toEqual([]);
  });

  it('warns when a description is longer than about 160 characters, or cut off with "…"', async () => {
    const long = `${faqDe} ${'Und noch ein Satz, den keine Suchmaschine mehr zeigt.'.repeat(2)}`;
    const c = contentCopy({
      'routes.yaml': routes
        .replace(faqDe, long)
        .replace('en: School preparation for children aged 5–6', 'en: …School preparation')
        .replace(/(en: …School preparation[^\n]*)\n/, '$1…\n'),
    });
    try {
      const { code, problems } = await validate(c.dir);
      expect(code).toBe(0);
      const found = problems.filter((p) => p.code.startsWith('description-')).map((p) => `${p.code} ${p.file}:${p.line} ${p.path} ${p.severity}`);
      expect(found).toEqual([
        `description-too-long routes.yaml:${lineOf(routes, faqDe)} routes[${indexOf('/faq')}].description.de warning`,
        `description-cut-off routes.yaml:${lineOf(routes, 'en: School preparation for children aged 5–6')} routes[${indexOf('/vor-school')}].description.en warning`,
      ]);
    } finally {
      c.cleanup();
    }
  });
});
