import { type ChildProcess, spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { contentCopy, ROOT } from '../helpers/cli.ts';

const clean = () => ({ ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(VITEST|VITE_|NODE_ENV$)/.test(k))), NO_COLOR: '1' });

/** Collects a child's stdout until `pattern` appears. */
function waitFor(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout!.setEncoding('utf8').on('data', (d) => {
      text += d;
      if (pattern.test(text)) resolve(text);
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before ${pattern}:\n${text}`)));
  });
}

/** Resolves once nothing answers at `url` any more. */
async function serverGone(url: string): Promise<void> {
  for (;;) {
    try {
      await fetch(url);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('content dev, the command', () => {
  it('prints the errors in the terminal as validate does, with the real path', async () => {
    const copy = contentCopy();
    const text = (await import('node:fs')).readFileSync(`${copy.dir}/courses/vocal.yaml`, 'utf8');
    (await import('node:fs')).writeFileSync(`${copy.dir}/courses/vocal.yaml`, text.replace('\ntitle:', '\ntitel:'));
    const child = spawn(process.execPath, ['cli/bin.js', 'dev', '--content', copy.dir, '--port', '0'], { cwd: ROOT, env: clean() });
    try {
      const out = await waitFor(child, /Preview: http:\/\/\S+/);
      expect(out).toContain(`${copy.dir}/courses/vocal.yaml`);
      expect(out).toMatch(/5:1 +error The key "titel" is not known here\. \[unknown-key\]/);
      expect(out).toContain('hint     Did you mean "title"?');
      expect(out.match(/First error:/g)).toHaveLength(1); // printed once, not once per file-system event
    } finally {
      child.kill('SIGTERM');
      copy.cleanup();
    }
  }, 60_000);

  it('stops its server when npx, which started it, gets SIGTERM', async () => {
    const child = spawn('npx', ['--no-install', 'content', 'dev', '--port', '0'], { cwd: ROOT, env: clean(), detached: true });
    const out = await waitFor(child, /Preview: (http:\/\/\S+)/);
    const url = /Preview: (http:\/\/\S+)/.exec(out)![1]!;
    expect((await fetch(url)).status).toBe(200);
    process.kill(child.pid!, 'SIGTERM'); // npx itself, as a service manager or `kill <pid>` would
    await serverGone(url);
  }, 60_000);
});
