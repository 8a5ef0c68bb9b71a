import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';

const ANALYZE = '/usr/bin/systemd-analyze';
const UNITS = ['studio-serve.socket', 'studio-serve.service', 'studio-rebuild.service', 'studio-rebuild.timer'];
const missing = !existsSync(ANALYZE);
if (missing) console.warn(`deploy/*.service not checked: no ${ANALYZE} (Debian's systemd package has it).`);

/**
 * The shipped units as systemd reads them. They name the compiler at /srv/studio/app (docs/deploy.md);
 * here that is this checkout, so that verify also finds the scripts they run, executable.
 */
describe.skipIf(missing)('the systemd units in deploy/', () => {
  const dir = mkdtempSync(join(tmpdir(), 'studio-units-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  for (const unit of UNITS)
    writeFileSync(join(dir, unit), readFileSync(join(ROOT, 'deploy', unit), 'utf8').replaceAll('/srv/studio/app', ROOT.replace(/\/$/, '')));
  const analyze = (...args: string[]) =>
    spawnSync(ANALYZE, args, { cwd: dir, encoding: 'utf8', env: { ...process.env, SYSTEMD_LOG_COLOR: '0', NO_COLOR: '1' } });

  it('pass systemd-analyze verify without a word', () => {
    const r = analyze('verify', ...UNITS.map((u) => join(dir, u)));
    expect(r.stderr + r.stdout).toBe('');
    expect(r.status).toBe(0);
  });

  it.each(['studio-serve.service', 'studio-rebuild.service'])('%s runs in a sandbox systemd rates SAFE or OK', (unit) => {
    const r = analyze('security', '--offline=true', '--no-pager', join(dir, unit));
    expect(r.stdout).toMatch(new RegExp(`Overall exposure level for ${unit.replace('.', '\\.')}: [0-9.]+ (SAFE|OK)`));
    const text = readFileSync(join(dir, unit), 'utf8');
    // The points docs/deploy.md promises: a user of its own, a read-only system, one folder to write.
    for (const line of ['User=studio', 'ProtectSystem=strict', 'NoNewPrivileges=yes', 'PrivateTmp=yes', 'ProtectHome=yes'])
      expect(text).toContain(`\n${line}\n`);
    expect(text.match(/^ReadWritePaths=.*$/gm)).toEqual([
      unit === 'studio-serve.service' ? 'ReadWritePaths=/var/lib/studio/inbox' : 'ReadWritePaths=/srv/studio/www',
    ]);
  });

  it('rebuilds daily after midnight UTC, and after a day the machine was off', () => {
    const timer = readFileSync(join(dir, 'studio-rebuild.timer'), 'utf8');
    const calendar = /^OnCalendar=(.*)$/m.exec(timer)![1]!;
    const r = analyze('calendar', '--iterations=2', calendar);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Next elapse: \w+ \d{4}-\d\d-\d\d 00:15:00 UTC/);
    expect(timer).toContain('\nPersistent=true\n');
  });
});
