// `content dev`'s save-to-visible time, shared by the benchmarks (build.ts, incremental.ts).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { fromRoot } from '../cli/paths.ts';

/** A GET without keep-alive (the preview closes idle connections between saves). */
const fetchText = (url: string) =>
  new Promise<string>((resolve, reject) =>
    get(url, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve(body));
    }).on('error', reject),
  );

/**
 * `content dev` in a process of its own, `runs` saves of one course file (its route is `/COURSE`): the milliseconds from
 * each save until the reload event has come and the page, fetched again, shows the change.
 */
export async function devSaveToVisible(content: string, course: string, runs: number): Promise<number[]> {
  const child = spawn(process.execPath, [fromRoot('cli/bin.js'), 'dev', '--content', content, '--host', '127.0.0.1', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const found = /Preview: (http:\/\/\S+)/.exec(out)?.[1];
        if (found) resolve(found);
      });
      child.on('exit', (code) => reject(new Error(`content dev stopped (${code})`)));
    });
    let reloads = 0;
    let onReload = () => {};
    get(`${url}/__dev/events`, { agent: false }, (res) =>
      res.setEncoding('utf8').on('data', (d: string) => {
        reloads += d.split('event: reload').length - 1;
        onReload();
      }),
    );
    await new Promise((r) => setTimeout(r, 500)); // the event stream is open
    const file = join(content, 'courses', `${course}.yaml`);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const marker = `dev${Date.now()}`;
      const seen = reloads;
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^( {2}ru: )(.*?)( dev\d+)?$/m, `$1$2 ${marker}`));
      const saved = performance.now();
      await new Promise<void>((resolve) => {
        onReload = () => reloads > seen && resolve();
        onReload();
      });
      const page = await fetchText(`${url}/${course}`);
      if (!page.includes(marker)) throw new Error(`content dev: /${course} does not show the saved change`);
      times.push(performance.now() - saved);
      await new Promise((r) => setTimeout(r, 300)); // the next save is a change of its own
    }
    return times;
  } finally {
    child.kill();
  }
}
