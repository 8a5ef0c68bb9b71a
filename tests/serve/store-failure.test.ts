import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MANIFEST_FILE } from '../../cli/serve/manifest.ts';
import { postJson, serveSite, validEnquiry } from '../helpers/serve.ts';
import { tinyDisk } from '../helpers/tiny-disk.ts';

const dist = inject('siteDir');
const PHONE = '+49 30 1234567';
const EMAIL = 'studio@example.org';

/** Issue 12, items 2 and 3 (the server's part): a store that cannot store says so, and how else to reach the studio. */
describe('content serve: when the inbox cannot store', () => {
  const disk = tinyDisk('1m');
  const root = mkdtempSync(join(tmpdir(), 'studio-full-'));
  let server: Awaited<ReturnType<typeof serveSite>> | undefined;

  beforeAll(async () => {
    if (!disk) return;
    // The shipped content still has placeholder contacts; a studio that filled them in.
    mkdirSync(join(root, '.studio'));
    const manifest = JSON.parse(readFileSync(join(dist, MANIFEST_FILE), 'utf8'));
    for (const m of Object.values(manifest.messages) as { contacts: object }[]) m.contacts = { phone: PHONE, email: EMAIL };
    writeFileSync(join(root, MANIFEST_FILE), JSON.stringify(manifest));
    server = await serveSite(root, { data: join(disk.dir, 'inbox'), rateLimit: { max: 0, windowMs: 60_000 } });
  });
  afterAll(async () => {
    await server?.close().catch(() => {});
    disk?.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it.skipIf(!disk)('answers 503 with the studio’s phone and e-mail, never "ok", and the health check says so', async () => {
    const health = await fetch(`${server!.url}/api/health`);
    expect(health.status).toBe(200);
    // Storing works; only e-mail to the studio is off here (issue 36: said, not "ok").
    expect(await health.json()).toEqual({
      ok: true,
      status: 'degraded',
      reasons: [expect.stringMatching(/^e-mail to the studio is off/)],
      mailFailed: 0,
      retentionDays: 180,
    });

    disk!.fill();
    const res = await postJson(server!.url, validEnquiry({ locale: 'en' }));
    expect(res.status).toBe(503);
    const body = (await res.json()) as { ok: boolean; error: string; message: string };
    expect(body.ok).toBe(false);
    expect(body.error).toBe('storage_unavailable');
    expect(body.message).toContain('could not be sent');
    expect(body.message).toContain(PHONE);
    expect(body.message).toContain(EMAIL);

    const form = await fetch(`${server!.url}/api/enquiry`, {
      method: 'POST',
      body: new URLSearchParams({ name: 'Boris', course: 'piano', email: 'boris@example.org', website: '', locale: 'de' }),
      redirect: 'manual',
    });
    expect(form.status).toBe(503);
    const page = await form.text();
    expect(page).toContain('<html lang="de">');
    expect(page).toContain(PHONE);
    expect(page).toContain(EMAIL);

    const sick = await fetch(`${server!.url}/api/health`);
    expect(sick.status).toBe(503);
    const reason = (await sick.json()) as { ok: boolean; status: string; reasons: string[] };
    expect(reason).toMatchObject({ ok: false, status: 'degraded' });
    // In words, and without the database's path (issue 24, point 9).
    expect(reason.reasons.join(' ')).toMatch(/disk of the enquiry database is full/);
    expect(JSON.stringify(reason)).not.toContain('/');
  });
});
