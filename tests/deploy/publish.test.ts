import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../helpers/cli.ts';
import { serveSite } from '../helpers/serve.ts';

const PUBLISH = join(ROOT, 'deploy/publish.sh');
const RSYNC = ['/usr/bin/rsync', '/bin/rsync'].find((p) => existsSync(p));
if (!RSYNC) console.warn('deploy/publish.sh: rsync is missing (apt-get install rsync), so the releases are copied with cp -a here.');

/**
 * `systemctl` as publish.sh calls it, for this test: studio-serve.service is running when the file
 * `active` is in its folder; each call is written to `calls`, and try-restart fails when `fails` is there.
 */
const shims = mkdtempSync(join(tmpdir(), 'studio-systemctl-'));
writeFileSync(
  join(shims, 'systemctl'),
  '#!/bin/sh\necho "$*" >>"$SHIMS/calls"\ncase $1 in is-active) [ -e "$SHIMS/active" ] ;; try-restart) [ ! -e "$SHIMS/fails" ] ;; *) exit 5 ;; esac\n',
  { mode: 0o755 },
);
const shimEnv = (env: Record<string, string> = {}) => ({ ...process.env, PATH: `${shims}:${process.env.PATH}`, SHIMS: shims, ...env });
const calls = () => (existsSync(join(shims, 'calls')) ? readFileSync(join(shims, 'calls'), 'utf8').trim().split('\n') : []);

const publish = (...args: string[]) => spawnSync('sh', [PUBLISH, ...args], { encoding: 'utf8', env: shimEnv() });

/**
 * deploy/publish.sh on this machine, with two copies of the built site: the upload as
 * docs/deploy.md shows it (rsync into a new folder beside the one online), the switch of the
 * `current` link, what it refuses, and which old copies it removes.
 */
describe('publishing a site with deploy/publish.sh', () => {
  const site = inject('siteDir');
  const www = mkdtempSync(join(tmpdir(), 'studio-www-'));
  const releases = join(www, 'releases');
  const current = join(www, 'current');
  let n = 0;
  /** A new release, uploaded as the guide does it; `marker` is written into its home page. */
  const upload = (marker: string): string => {
    const name = `2027-01-${String(10 + n++).padStart(2, '0')}T001500Z-${marker}`;
    const target = join(releases, name);
    if (RSYNC) {
      const r = spawnSync(RSYNC, ['-a', `--link-dest=${current}/`, `${site}/`, `${target}/`], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
    } else cpSync(site, target, { recursive: true });
    const index = join(target, 'index.html');
    // A file of its own, not a hard link shared with the previous release.
    const html = readFileSync(index, 'utf8');
    rmSync(index);
    writeFileSync(index, html.replace('<body>', `<body><!--release ${marker}-->`));
    return target;
  };
  const online = () => /<!--release (\w+)-->/.exec(readFileSync(join(current, 'index.html'), 'utf8'))?.[1];

  beforeAll(() => mkdirSync(releases));
  afterAll(() => {
    rmSync(www, { recursive: true, force: true });
    rmSync(shims, { recursive: true, force: true });
  });

  it('switches the link to the new copy in one rename, and back', () => {
    const a = upload('a');
    const first = publish(a);
    expect(first.status, first.stderr).toBe(0);
    expect(readlinkSync(current)).toBe(`releases/${readdirSync(releases)[0]}`);
    expect(online()).toBe('a');
    const b = upload('b');
    expect(publish(b).status).toBe(0);
    expect(online()).toBe('b');
    // Unchanged files of the new copy are hard links to the one online: an upload sends only what changed.
    if (RSYNC) expect(statSync(join(b, 'vocal.html')).ino).toBe(statSync(join(a, 'vocal.html')).ino);
    // Back to the one before, the same way.
    expect(publish(a).status).toBe(0);
    expect(online()).toBe('a');
    expect(readdirSync(www).sort()).toEqual(['current', 'releases']);
  });

  it('never leaves a moment without a site: a reader sees one copy or the other, never none', async () => {
    const a = upload('c');
    const b = upload('d');
    expect(publish(a).status).toBe(0);
    const stop = join(www, '.stop');
    // A reader in a process of its own, reading the home page through the link as a web server does.
    const reader = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const seen = {}; let missing = 0;
         while (!fs.existsSync(process.argv[2])) {
           try { const m = /<!--release (\\w+)-->/.exec(fs.readFileSync(process.argv[1], 'utf8')); seen[m ? m[1] : 'other'] = 1; }
           catch { missing++; }
         }
         console.log(JSON.stringify({ missing, seen: Object.keys(seen).sort() }));`,
        join(current, 'index.html'),
        stop,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    reader.stdout.on('data', (d) => {
      out += d;
    });
    const done = new Promise((r) => reader.on('exit', r));
    for (let i = 0; i < 40; i++) expect(publish(i % 2 ? a : b).status).toBe(0);
    writeFileSync(stop, '');
    await done;
    rmSync(stop);
    expect(JSON.parse(out)).toEqual({ missing: 0, seen: ['c', 'd'] });
    // 40 publishes beside a reader that takes a core: about 30 s on a busy machine of two cores.
  }, 180_000);

  it('refuses what is not a built site inside releases/, and a current that is not a link', () => {
    const before = readlinkSync(current);
    const outside = mkdtempSync(join(tmpdir(), 'studio-outside-'));
    cpSync(site, outside, { recursive: true });
    const notASite = join(releases, 'notes');
    mkdirSync(notASite);
    writeFileSync(join(notASite, 'index.html'), 'mine');
    try {
      for (const [args, message] of [
        [[outside], /is not a folder directly inside a folder named releases/],
        [[notASite], /is not a site "content build" wrote/],
        [[join(releases, 'missing')], /is not a folder/],
        [[], /usage/],
        [[join(releases, 'x'), www], /usage/],
      ] as const) {
        const r = publish(...args);
        expect(r.status).toBe(2);
        expect(r.stderr).toMatch(message);
      }
      expect(readlinkSync(current)).toBe(before);
      // A current that someone made a real folder: left as it is.
      const elsewhere = mkdtempSync(join(tmpdir(), 'studio-www2-'));
      mkdirSync(join(elsewhere, 'releases'));
      mkdirSync(join(elsewhere, 'current'));
      cpSync(site, join(elsewhere, 'releases', 'x'), { recursive: true });
      const r = publish(join(elsewhere, 'releases', 'x'));
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/current is not a link/);
      expect(readdirSync(join(elsewhere, 'current'))).toEqual([]);
      rmSync(elsewhere, { recursive: true, force: true });
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
    expect(existsSync(join(notASite, 'index.html'))).toBe(true);
  });

  it('keeps the three copies made last and anything that is not a built site', () => {
    for (const m of ['f', 'g', 'h', 'i']) expect(publish(upload(m)).status).toBe(0);
    const left = readdirSync(releases).sort();
    expect(left.filter((r) => r !== 'notes').map((r) => r.slice(-1))).toEqual(['g', 'h', 'i']);
    expect(left).toContain('notes');
    expect(online()).toBe('i');
  });

  it('restarts content serve only when what it reads at start changed, says so, and keeps a failed restart owed', async () => {
    /** The form rules of a release, changed (a file of its own: the upload's are hard links to the release online). */
    const rules = (target: string, change: (r: Record<string, unknown>) => void) => {
      const file = join(target, '.studio/enquiry.json');
      const r = JSON.parse(readFileSync(file, 'utf8'));
      change(r);
      rmSync(file);
      writeFileSync(file, JSON.stringify(r));
      return target;
    };
    const owed = join(www, '.serve-restart');
    const restarts = () => calls().filter((c) => c === 'try-restart studio-serve.service').length;
    const env = (more: Record<string, string> = {}) => ({ encoding: 'utf8' as const, env: shimEnv(more) });
    writeFileSync(join(shims, 'active'), '');
    try {
      // Another order of the course options (the server follows them by itself): no restart.
      let r = publish(rules(upload('m'), (m) => (m.options as unknown[]).reverse()));
      expect(r.stdout).toContain('publish: content serve takes the new site as it is: no restart\n');
      expect(restarts()).toBe(0);

      // Another form address and retention period: restarted, with the reasons.
      r = publish(
        rules(upload('n'), (m) => {
          m.endpoint = '/api/contact';
          m.keepDays = 90;
        }),
      );
      expect(r.stdout).toContain(
        "publish: content serve must restart to use:\npublish:   the form's address: /api/enquiry → /api/contact\npublish:   how long enquiries are kept: 180 days → 90 days\n",
      );
      expect(r.stdout).toMatch(/publish: restarted studio-serve\.service/);
      expect(restarts()).toBe(1);
      expect(existsSync(owed)).toBe(false);

      // A restart that fails stays owed: the next publish, of the same rules, tries again.
      writeFileSync(join(shims, 'fails'), '');
      r = publish(upload('o'));
      expect(r.status).toBe(0);
      expect(r.stderr).toMatch(/could not restart studio-serve\.service; run: systemctl restart studio-serve/);
      expect(readFileSync(owed, 'utf8')).toContain("the form's address: /api/contact → /api/enquiry");
      rmSync(join(shims, 'fails'));
      r = publish(upload('p'));
      expect(r.stdout).toContain("publish: content serve must restart to use:\npublish:   the form's address: /api/contact → /api/enquiry\n");
      expect(r.stdout).toMatch(/publish: restarted studio-serve\.service/);
      expect(restarts()).toBe(3);
      expect(existsSync(owed)).toBe(false);

      // Under studio-rebuild.service (STUDIO_NO_RESTART: its sandbox cannot restart): left owed, done by --restart-owed as root.
      r = spawnSync('sh', [PUBLISH, rules(upload('q'), (m) => (m.locales = ['ru', 'en']))], env({ STUDIO_NO_RESTART: '1' }));
      expect(r.stdout).toContain('publish:   the languages: ru en de → ru en\n');
      expect(r.stdout).toMatch(/the restart is left to publish\.sh --restart-owed/);
      expect(restarts()).toBe(3);
      r = spawnSync('sh', [PUBLISH, '--restart-owed', www], env());
      expect(r.stdout).toMatch(/the languages: ru en de → ru en\npublish: restarted studio-serve\.service/);
      expect(restarts()).toBe(4);
      expect(existsSync(owed)).toBe(false);
      // Nothing owed: nothing done.
      r = spawnSync('sh', [PUBLISH, '--restart-owed', www], env());
      expect([r.status, r.stdout, restarts()]).toEqual([0, '', 4]);

      // No server running (set-up B, or not started yet): nothing to restart, nothing owed.
      rmSync(join(shims, 'active'));
      r = publish(upload('r'));
      expect(r.stdout).toMatch(/the languages: ru en → ru en de\npublish: studio-serve\.service is not running here/);
      expect([restarts(), existsSync(owed)]).toEqual([4, false]);

      // Where systemd does not run it (the cron line of docs/deploy.md): --restart-owed with the machine's own restart
      // command, STUDIO_RESTART_COMMAND; one that fails keeps the restart owed.
      r = spawnSync('sh', [PUBLISH, rules(upload('s'), (m) => (m.locales = ['ru', 'en']))], env({ STUDIO_NO_RESTART: '1' }));
      expect(readFileSync(owed, 'utf8')).toBe('the languages: ru en de → ru en\n');
      r = spawnSync('sh', [PUBLISH, '--restart-owed', www], env({ STUDIO_RESTART_COMMAND: 'false' }));
      expect(r.stderr).toMatch(/the restart failed \(false\); it stays owed/);
      expect(existsSync(owed)).toBe(true);
      const done = join(www, '.restarted-by-command');
      r = spawnSync('sh', [PUBLISH, '--restart-owed', www], env({ STUDIO_RESTART_COMMAND: `touch '${done}'` }));
      expect(r.stdout).toMatch(/publish: restarted content serve with: touch/);
      expect([existsSync(done), existsSync(owed), restarts()]).toEqual([true, false, 4]);
      rmSync(done);

      // --restart-owed runs as root on a folder the studio user writes: a link in place of the record is refused, not followed.
      const secret = join(www, '.root-only');
      writeFileSync(secret, 'root secret\n');
      symlinkSync(secret, owed);
      r = spawnSync('sh', [PUBLISH, '--restart-owed', www], env());
      expect([r.status, r.stdout, r.stderr]).toEqual([2, '', expect.stringMatching(/\.serve-restart is not a plain file: left alone/)]);
      expect([readFileSync(secret, 'utf8'), lstatSync(owed).isSymbolicLink()]).toEqual(['root secret\n', true]);
      // Nor a link put in place of the record between the check and the read: the studio user swaps one in and out.
      rmSync(owed);
      const swapper = spawn('sh', [
        '-c',
        `cd '${www}'; while :; do ln -sf '${secret}' .l.tmp; mv -T .l.tmp .serve-restart; printf 'x\\n' > .f.tmp; mv -T .f.tmp .serve-restart; done`,
      ]);
      try {
        const said = Array.from({ length: 100 }, () => spawnSync('sh', [PUBLISH, '--restart-owed', www], env({ STUDIO_RESTART_COMMAND: 'false' })).stdout);
        expect(said.filter((out) => out.includes('root secret'))).toEqual([]);
        expect(said.filter((out) => out.includes('publish:   x')).length, 'the record was read in some runs').toBeGreaterThan(0);
      } finally {
        swapper.kill();
        await new Promise((resolve) => swapper.once('exit', resolve));
      }
      rmSync(owed);
      rmSync(secret);
      for (const tmp of ['.l.tmp', '.f.tmp']) rmSync(join(www, tmp), { force: true });
    } finally {
      rmSync(join(shims, 'active'), { force: true });
    }
  });

  it.skipIf(!RSYNC)('the workflow (.github/workflows/publish.yml) uploads and switches with the same commands', () => {
    const workflow = parse(readFileSync(join(ROOT, '.github/workflows/publish.yml'), 'utf8')) as { jobs: { publish: { steps: { run?: string }[] } } };
    const upload = workflow.jobs.publish.steps.at(-1)!.run!;
    // ssh to the server, played by this machine: options and host dropped, the command run here.
    const bin = join(www, '.bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'ssh'),
      '#!/bin/sh\nwhile [ $# -gt 0 ]; do case $1 in -i|-o|-l|-p) shift 2;; -*) shift;; *) break;; esac; done\nshift\nexec sh -c "$*"\n',
      { mode: 0o755 },
    );
    const script = upload.replaceAll('/srv/studio/www', www).replaceAll('/srv/studio/app', ROOT.replace(/\/$/, ''));
    // The job's checkout, with the site it built in dist/.
    const checkout = join(www, '.checkout');
    cpSync(site, join(checkout, 'dist'), { recursive: true });
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: checkout,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        HOME: join(www, '.home'),
        HOST: 'studio.test',
        KNOWN_HOSTS: '',
        SSH_KEY: 'key',
        GITHUB_SHA: '0123456789abcdef0123',
        STUDIO_NO_RESTART: '1',
      },
    });
    rmSync(bin, { recursive: true });
    rmSync(checkout, { recursive: true });
    rmSync(join(www, '.home'), { recursive: true });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(readlinkSync(current)).toMatch(/^releases\/\d{4}-\d\d-\d\dT\d{6}Z-0123456789ab$/);
    expect(online()).toBeUndefined(); // the site as built, without a test's marker
    expect(readFileSync(join(current, 'en.html'))).toEqual(readFileSync(join(site, 'en.html')));
  });

  it("deploy/rebuild.sh (the daily timer's job) builds a new release from the content beside it and publishes it", () => {
    const before = readlinkSync(current);
    const r = spawnSync('sh', [join(ROOT, 'deploy/rebuild.sh'), www], { encoding: 'utf8', env: { ...process.env, STUDIO_NO_RESTART: '1', NO_COLOR: '1' } });
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/✓ Built \d+ pages/);
    const now = readlinkSync(current);
    expect(now).not.toBe(before);
    expect(now).toMatch(/^releases\/\d{4}-\d\d-\d\dT\d{6}Z-\d+$/);
    expect(readFileSync(join(current, 'en.html'))).toEqual(readFileSync(join(site, 'en.html')));
  });

  it('content serve follows the link to the new copy without a restart', async () => {
    expect(publish(upload('k')).status).toBe(0);
    const server = await serveSite(current);
    try {
      const marker = async () => /<!--release (\w+)-->/.exec(await (await fetch(`${server.url}/`)).text())?.[1];
      expect(await marker()).toBe('k');
      expect(publish(upload('l')).status).toBe(0);
      expect(await marker()).toBe('l');
      expect((await fetch(`${server.url}/en/vocal`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
  it("deploy/restart-needed.mjs names the studio's name as the e-mails' sender, which content serve reads once, when e-mail to the studio is on", () => {
    const dirs = ['before', 'after', 'plain-before', 'plain-after'].map((n) => join(www, `.rules-${n}`));
    const write = (dir: string, rules: Record<string, unknown>) => {
      mkdirSync(join(dir, '.studio'), { recursive: true });
      writeFileSync(join(dir, '.studio/enquiry.json'), JSON.stringify({ endpoint: '/api/enquiry', locales: ['ru', 'en', 'de'], keepDays: 180, ...rules }));
    };
    const notify = { to: 'studio@example.org', subject: { ru: 'Заявка', en: 'Enquiry', de: 'Anfrage' } };
    write(dirs[0]!, { siteName: 'Studio', notify });
    write(dirs[1]!, { siteName: 'Musikstudio Linden', notify });
    write(dirs[2]!, { siteName: 'Studio' });
    write(dirs[3]!, { siteName: 'Musikstudio Linden' });
    try {
      const compare = (a: string, b: string) => spawnSync(process.execPath, [join(ROOT, 'deploy/restart-needed.mjs'), a, b], { encoding: 'utf8' }).stdout;
      expect(compare(dirs[0]!, dirs[1]!)).toBe("the studio's name in e-mails to the studio: Studio → Musikstudio Linden\n");
      // No e-mail to the studio: the name is read by nothing that needs a restart.
      expect(compare(dirs[2]!, dirs[3]!)).toBe('');
    } finally {
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
});
