// Issue 24, point 5: a rebuild while `content serve` runs. The pages and the form rules always
// come from the same build: once the new pages offer an option, the server takes it.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentCopy, runCli } from '../helpers/cli.ts';
import { postJson, readStored, serveSite, tempData, validEnquiry } from '../helpers/serve.ts';

const NEW_OPTION = `
- value: logorhythmics
  course: logorhythmics
  label:
    ru: Логоритмика
    en: Logorhythmics
    de: Logorhythmik
`;

const root = mkdtempSync(join(tmpdir(), 'studio-rebuild-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function build(content: string, out: string) {
  const r = await runCli(['build', '--content', content, '--out', out, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}

describe('#24 point 5: content serve follows a rebuild', () => {
  it('takes a course option as soon as the rebuilt pages offer it, and the pages and rules come from the same build', { timeout: 240_000 }, async () => {
    const content = contentCopy();
    // The shipped form offers logorhythmics: the first build is made without it, the rebuild adds it.
    const form = join(content.dir, 'form.yaml');
    const shipped = readFileSync(form, 'utf8');
    expect(shipped).toContain(NEW_OPTION);
    writeFileSync(form, shipped.replace(NEW_OPTION, '\n'));
    const dist = join(root, 'dist');
    try {
      await build(content.dir, dist);
      const server = await serveSite(dist, { rateLimit: { max: 0, windowMs: 60_000 } });
      try {
        const before = await postJson(server.url, validEnquiry({ course: 'logorhythmics' }));
        expect(before.status).toBe(422);
        expect(await (await fetch(`${server.url}/vocal`)).text()).not.toContain('value="logorhythmics"');

        appendFileSync(join(content.dir, 'form.yaml'), NEW_OPTION);
        expect(readFileSync(join(content.dir, 'form.yaml'), 'utf8')).toContain('logorhythmics');
        await build(content.dir, dist);

        // The first request after the swap already sees the new build: its page and its rules.
        expect(await (await fetch(`${server.url}/vocal`)).text()).toContain('value="logorhythmics"');
        const after = await postJson(server.url, validEnquiry({ course: 'logorhythmics' }));
        expect(after.status).toBe(201);
        const form = await fetch(`${server.url}/api/enquiry`, {
          method: 'POST',
          body: new URLSearchParams({ name: 'Plain', course: 'logorhythmics', email: 'plain@example.org', locale: 'en' }),
          redirect: 'manual',
        });
        expect(form.status).toBe(303);
        // A page of the previous build, still open in a visitor's browser, is not refused either.
        expect((await postJson(server.url, validEnquiry({ course: 'music' }))).status).toBe(201);
        expect(readStored(server.data).map((e) => e.course)).toEqual(['logorhythmics', 'logorhythmics', 'music']);
      } finally {
        await server.stop();
      }
    } finally {
      content.cleanup();
    }
  });

  it('accepts the options of the build before also after a restart (a publish renamed a course)', { timeout: 240_000 }, async () => {
    const content = contentCopy();
    const form = join(content.dir, 'form.yaml');
    const shipped = readFileSync(form, 'utf8');
    const dist = join(root, 'dist-restart');
    const data = tempData();
    try {
      await build(content.dir, dist); // r1 offers logorhythmics
      const r1 = await serveSite(dist, { data: data.dir, rateLimit: { max: 0, windowMs: 60_000 } });
      expect((await postJson(r1.url, validEnquiry({ course: 'logorhythmics' }))).status).toBe(201);
      await r1.close();
      // r2 renames it; the server is restarted on r2 (publish.sh's way), twice.
      writeFileSync(form, shipped.replace('- value: logorhythmics', '- value: rhythm'));
      await build(content.dir, dist);
      for (let restart = 0; restart < 2; restart++) {
        const r2 = await serveSite(dist, { data: data.dir, rateLimit: { max: 0, windowMs: 60_000 } });
        try {
          expect(await (await fetch(`${r2.url}/vocal`)).text()).not.toContain('value="logorhythmics"');
          // A page of r1 still open in a browser posts the old option.
          expect((await postJson(r2.url, validEnquiry({ course: 'logorhythmics' }))).status).toBe(201);
          expect((await postJson(r2.url, validEnquiry({ course: 'rhythm' }))).status).toBe(201);
          expect((await postJson(r2.url, validEnquiry({ course: 'never-offered' }))).status).toBe(422);
        } finally {
          await r2.close();
        }
      }
    } finally {
      data.cleanup();
      content.cleanup();
    }
  });
});
