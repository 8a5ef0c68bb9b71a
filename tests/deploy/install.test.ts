import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCliProcess } from '../helpers/cli.ts';
import { postJson, spawnServe, validEnquiry } from '../helpers/serve.ts';

/** As docs/deploy.md has it: the compiler installed by root, run by a user of its own that cannot write it. */
const asRoot = process.getuid?.() === 0;
const SERVICE = asRoot ? { uid: 65534, gid: 65534 } : {}; // nobody, standing in for the studio user
if (!asRoot) console.warn('tests/deploy/install: not run as root, so the installed copy is run by its own installer, not by another user.');

/**
 * A fresh copy of the project (what git has, as a server's checkout would), installed with
 * `npm ci --omit=dev` as the guide says: no devDependency is needed to build the site and run
 * the server.
 */
describe('a server installation with npm ci --omit=dev', () => {
  const top = mkdtempSync(join(tmpdir(), 'studio-install-'));
  const app = join(top, 'app');
  const www = join(top, 'www');
  const inbox = join(top, 'inbox');

  beforeAll(() => {
    chmodSync(top, 0o755); // the service user must reach the compiler, as under /srv/studio
    mkdirSync(app);
    const files = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
    expect(files.status, files.stderr).toBe(0);
    const copy = spawnSync('tar', ['-c', '--null', '-T', '-', '-f', '-'], { cwd: ROOT, input: files.stdout, maxBuffer: 256 * 1024 * 1024 });
    expect(copy.status, String(copy.stderr)).toBe(0);
    expect(spawnSync('tar', ['-x', '-f', '-', '-C', app], { input: copy.stdout }).status).toBe(0);
    const install = spawnSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: app,
      encoding: 'utf8',
      env: { ...process.env, NODE_ENV: '' },
    });
    expect(install.status, install.stdout + install.stderr).toBe(0);
    for (const dir of [www, inbox]) {
      mkdirSync(dir);
      if (asRoot) chownSync(dir, SERVICE.uid!, SERVICE.gid!);
    }
  }, 300_000);
  afterAll(() => rmSync(top, { recursive: true, force: true }));

  it('installs no devDependency', () => {
    const installed = new Set(readdirSync(join(app, 'node_modules')));
    for (const dev of ['vitest', '@biomejs/biome', 'playwright-core', 'lighthouse', 'smtp-server']) expect(installed.has(dev), dev).toBe(false);
    expect(existsSync(join(app, 'node_modules/fastify'))).toBe(true);
  });

  it('validates, builds and serves the site as the service user, who cannot write the compiler', async () => {
    const script = join(app, 'cli/bin.js');
    const run = (argv: string[]) => runCliProcess(argv, { script, cwd: app, ...SERVICE, env: { HOME: top } });
    const validate = await run(['validate', '--quiet']);
    expect(validate.code, validate.stderr).toBe(0);
    const out = join(www, 'releases-1');
    const build = await run(['build', '--out', out]);
    expect(build.code, build.stdout + build.stderr).toBe(0);
    expect(build.stdout).toMatch(/✓ Built \d+ pages/);
    expect(existsSync(join(out, 'en.html'))).toBe(true);

    const serve = await spawnServe(['--out', out, '--data', inbox], { HOME: top }, { script, cwd: app, ...SERVICE });
    try {
      expect((await fetch(`${serve.url}/en`)).status).toBe(200);
      // Enquiries are taken; the shipped site.yaml's e-mail is a placeholder, so e-mail to the studio is off (issue 36).
      expect(await (await fetch(`${serve.url}/api/health`)).json()).toMatchObject({
        ok: true,
        status: 'degraded',
        reasons: [expect.stringMatching(/^e-mail to the studio is off/)],
      });
      expect((await postJson(serve.url, validEnquiry())).status).toBe(201);
    } finally {
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    }
  });
});
