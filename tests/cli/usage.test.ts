import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE, ROOT, runCli } from '../helpers/cli.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

describe('the content command', () => {
  it('exits 2 on an unknown option, with a usage hint and no stack trace', async () => {
    const r = await runCli(['validate', '--no-such-option']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain("unknown option '--no-such-option'");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 when the content directory does not exist', async () => {
    const r = await runCli(['validate', '--content', '/no/such/dir']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/error: The content directory "\/no\/such\/dir" does not exist/);
    expect(r.stderr).toMatch(/hint: /);
  });

  it('exits 2 on an unknown format', async () => {
    const r = await runCli(['validate', '--format', 'xml']);
    expect(r.code, r.stderr).toBe(2);
  });

  it('stops quietly when its reader closes the pipe early (content validate | head -1)', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'cli/bin.js'), 'validate', '--verbose', '--content', FIXTURE], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(code, stderr).toBe(0);
  }, 30_000);

  it('prints its version and exits 0', async () => {
    const r = await runCli(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('prints help for every command and exits 0', async () => {
    for (const cmd of ['validate', 'i18n', 'build', 'dev']) {
      const r = await runCli([cmd, '--help']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`Usage: content ${cmd}`);
      expect(r.stdout).toContain('--content <dir>');
    }
  });

  it('validate --format json prints only JSON on stdout; github prints workflow commands', async () => {
    const c = syntheticContent();
    try {
      c.edit('courses/course00001.yaml', (t) => t.replace('order: 1', 'ordr: 1'));
      const json = await runCli(['validate', '--content', c.dir, '--format', 'json']);
      expect(json.code, json.stderr).toBe(1);
      const report = JSON.parse(json.stdout);
      expect(report.errors).toBeGreaterThan(0);
      const gh = await runCli(['validate', '--content', c.dir, '--format', 'github']);
      expect(gh.code, gh.stderr).toBe(1);
      expect(gh.stdout).toMatch(/^::error file=.*courses\/course00001\.yaml,line=\d+,col=1,.*::The key "ordr" is not known here\./m);
      const human = await runCli(['validate', '--content', c.dir]);
      expect(human.code, human.stderr).toBe(1);
      expect(human.stdout).not.toContain('\u001b[');
      expect(human.stdout).toContain('hint');
      expect(human.stdout).toMatch(/✗ \d+ errors?/);
    } finally {
      c.cleanup();
    }
  });

  it('validate exits 0 with warnings only', async () => {
    const c = syntheticContent();
    try {
      const r = await runCli(['validate', '--content', c.dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('warning');
    } finally {
      c.cleanup();
    }
  });
});
