import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer } from '../../cli/dev/dev-server.ts';
import { syntheticContent } from '../helpers/synthetic.ts';

const content = syntheticContent(2);
let dev: Awaited<ReturnType<typeof startDevServer>>;

beforeAll(async () => {
  dev = await startDevServer({ content: content.dir, host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await dev.close();
  content.cleanup();
});

/** Resolves with the next `reload` event the preview sends to open pages. */
async function nextReload(): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${dev.url}/__dev/events`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value } = await reader.read();
    text += decoder.decode(value);
    if (text.includes('event: reload')) {
      await reader.cancel();
      return performance.now() - started;
    }
  }
}

describe('content dev', () => {
  it('serves every locale and shows a saved change after a reload event', async () => {
    for (const path of ['/', '/en', '/de/course00001']) expect((await fetch(dev.url + path)).status, path).toBe(200);
    const reload = nextReload();
    await new Promise((r) => setTimeout(r, 100));
    content.edit('teachers/teacher.yaml', (t) => t.replace('en: Anna', 'en: Annabel'));
    await reload;
    expect(await (await fetch(`${dev.url}/en/teachers`)).text()).toContain('Annabel');
  });

  it('shows the validation error with file and line instead of crashing, and recovers', async () => {
    const before = content.read('courses/course00000.yaml');
    const reload = nextReload();
    await new Promise((r) => setTimeout(r, 100));
    content.write('courses/course00000.yaml', `${before}colour: red\n`);
    await reload;
    const page = await fetch(`${dev.url}/de`);
    expect(page.status).toBe(500);
    const html = await page.text();
    // The real path of the content directory, not "content/…".
    expect(html).toContain(`${content.dir}/courses/course00000.yaml:`);
    expect(html).toContain('The key &quot;colour&quot; is not known here.');
    const again = nextReload();
    await new Promise((r) => setTimeout(r, 100));
    content.write('courses/course00000.yaml', before);
    await again;
    expect((await fetch(`${dev.url}/de`)).status).toBe(200);
  });

  it('shows broken YAML as its error with file and line, and the page again once it is fixed', async () => {
    const before = content.read('courses/course00001.yaml');
    const reload = nextReload();
    await new Promise((r) => setTimeout(r, 100));
    content.write('courses/course00001.yaml', `${before}extra: [unclosed\n`);
    await reload;
    const page = await fetch(`${dev.url}/en/course00001`);
    expect(page.status).toBe(500);
    expect(await page.text()).toContain(`${content.dir}/courses/course00001.yaml:`);
    const again = nextReload();
    await new Promise((r) => setTimeout(r, 100));
    content.edit('courses/course00001.yaml', () => before.replace(/^( {2}en: )(.*)$/m, '$1Fixed title'));
    await again;
    const fixed = await fetch(`${dev.url}/en/course00001`);
    expect(fixed.status).toBe(200);
    expect(await fixed.text()).toContain('Fixed title');
  });

  it('shows each of two saves of the same size made within seconds (files written lately are read again whatever their stats)', async () => {
    const file = 'courses/course00000.yaml';
    const before = content.read(file);
    for (const word of ['Alpha', 'Omega']) {
      const reload = nextReload();
      await new Promise((r) => setTimeout(r, 100));
      content.write(file, before.replace(/^( {2}en: )(.*)$/m, `$1${word}`));
      await reload;
      expect(await (await fetch(`${dev.url}/en/course00000`)).text()).toContain(word);
    }
    content.write(file, before);
  });
});
