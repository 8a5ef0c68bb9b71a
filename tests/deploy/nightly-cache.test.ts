import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.ts';

/**
 * The nightly rebuild (deploy/studio-rebuild.service → deploy/rebuild.sh) as the service user, in this
 * checkout, which root installed as on the server: node_modules (and its .cache) belong to root. The unit
 * gives the service a cache of its own (CacheDirectory=, which systemd makes for the unit's user) and
 * points the build at it; here the test makes that folder as systemd would.
 */
const asRoot = process.getuid?.() === 0;
if (!asRoot) console.warn('tests/deploy/nightly-cache: not run as root, so the rebuild cannot run as another user.');
const SERVICE = { uid: 65534, gid: 65534 }; // nobody, standing in for the studio user

const unit = readFileSync(join(ROOT, 'deploy/studio-rebuild.service'), 'utf8');
const setting = (name: string) => [...unit.matchAll(new RegExp(`^${name}=(.*)$`, 'gm'))].map((m) => m[1]!);

describe('the nightly rebuild keeps a cache it can write', () => {
  it('the unit gives the service its own cache folder and the build uses it', () => {
    expect(setting('CacheDirectory')).toEqual(['studio-site']);
    expect(setting('Environment')).toContain('STUDIO_CACHE_DIR=/var/cache/studio-site');
  });

  describe.skipIf(!asRoot)('as the service user', () => {
    const top = mkdtempSync(join(tmpdir(), 'studio-nightly-'));
    chmodSync(top, 0o755);
    const www = join(top, 'www');
    const cache = join(top, 'cache', 'studio-site');
    for (const dir of [www, join(www, 'releases'), join(top, 'cache'), cache]) mkdirSync(dir);
    for (const dir of [www, join(www, 'releases'), cache]) chownSync(dir, SERVICE.uid, SERVICE.gid);
    chmodSync(cache, 0o700); // CacheDirectoryMode=0700
    afterAll(() => rmSync(top, { recursive: true, force: true }));

    /** One night: deploy/rebuild.sh as systemd starts it (the unit's environment; PATH finds node as npm's scripts do). */
    const night = (env: Record<string, string>) => {
      const r = spawnSync('sh', [join(ROOT, 'deploy/rebuild.sh'), www], {
        cwd: ROOT,
        ...SERVICE,
        encoding: 'utf8',
        timeout: 280_000,
        env: { PATH: process.env.PATH!, HOME: top, NO_COLOR: '1', STUDIO_NO_RESTART: '1', ...env },
      });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      const cards = /(\d+) share cards drawn, (\d+) from the cache/.exec(r.stdout);
      expect(cards, r.stdout).not.toBeNull();
      return { drawn: Number(cards![1]), reused: Number(cards![2]), stderr: r.stderr };
    };
    const unitEnv = { STUDIO_CACHE_DIR: cache };

    it('is warm the second night: no card drawn again, and no word about the cache', () => {
      const first = night(unitEnv);
      expect(first.drawn).toBeGreaterThan(0);
      const second = night(unitEnv);
      expect(second).toEqual({ drawn: 0, reused: first.drawn + first.reused, stderr: '' });
      expect(first.stderr).not.toMatch(/cache/);
    }, 600_000);

    it("says once that it cannot write its cache when it has none of its own (root's node_modules)", () => {
      const r = night({});
      expect(r.drawn).toBeGreaterThan(0);
      expect(r.stderr.match(/warning the build cache .* cannot be written \(EACCES\)/g)).toHaveLength(1);
      expect(r.stderr).toContain('STUDIO_CACHE_DIR');
    }, 300_000);
  });
});
