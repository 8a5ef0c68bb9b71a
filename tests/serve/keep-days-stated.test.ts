import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { spawnServe, tempData } from '../helpers/serve.ts';

/**
 * Issue 38: the privacy page states the retention period (site.yaml form.keepDays), and the build
 * hands the same number to `content serve` in its manifest, so the server deletes enquiries when
 * the page says it does, and warns when an operator's --keep-days makes the page untrue.
 */
const dist = inject('siteDir');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const env = { STUDIO_SMTP_URL: '', STUDIO_NOTIFY_TO: '', STUDIO_KEEP_DAYS: '' };

/** A copy of the built site whose privacy page (and manifest) say `days`. */
function siteStating(days: number): string {
  const root = mkdtempSync(join(tmpdir(), 'studio-keep-days-'));
  cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const site = join(root, 'dist');
  cpSync(dist, site, { recursive: true });
  const manifest = join(site, '.studio', 'enquiry.json');
  writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), keepDays: days }));
  return site;
}

async function serveOutput(site: string, args: string[] = []): Promise<string> {
  const data = tempData();
  cleanups.push(data.cleanup);
  const s = await spawnServe(['--out', site, '--data', data.dir, ...args], env);
  s.child.kill('SIGTERM');
  await s.exited;
  return s.output();
}

describe('content serve keeps enquiries as long as the privacy page says', () => {
  it('takes the period from the built site when --keep-days is not given', async () => {
    const out = await serveOutput(siteStating(45));
    expect(out).toContain('Enquiries are deleted 45 days after they arrive');
    expect(out).not.toContain('the privacy page says');
  });

  it('warns when --keep-days makes the privacy page untrue', async () => {
    const out = await serveOutput(siteStating(45), ['--keep-days', '30']);
    expect(out).toContain('Enquiries are deleted 30 days after they arrive');
    expect(out).toMatch(/the privacy page says enquiries are deleted after 45 days: set form\.keepDays: 30 in site\.yaml and rebuild/);
  });
});
