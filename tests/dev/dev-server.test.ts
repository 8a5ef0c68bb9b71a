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

/**
 * Subscribes to the preview's reload events (the server counts the client once the response's
 * headers are sent, so a save made after this resolves is seen) and returns a function that waits
 * until the page at `path` answers as `shows` wants, reading it again after each reload event: a
 * wait for events, however long the machine takes, and never for a reload of an earlier save.
 */
async function watch(): Promise<{ until: (path: string, shows: (status: number, html: string) => boolean) => Promise<string>; close: () => Promise<void> }> {
  const res = await fetch(`${dev.url}/__dev/events`);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const nextReload = async () => {
    for (;;) {
      const at = text.indexOf('event: reload');
      if (at >= 0) {
        text = text.slice(at + 'event: reload'.length);
        return;
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the preview closed its event stream');
      text += decoder.decode(value);
    }
  };
  return {
    async until(path, shows) {
      for (;;) {
        const page = await fetch(dev.url + path);
        const html = await page.text();
        if (shows(page.status, html)) return html;
        await nextReload();
      }
    },
    close: () => reader.cancel(),
  };
}

/** Runs `body` with `file` as it is now put back afterwards, whatever happens (a failure stays one failure). */
async function keeping(file: string, body: (before: string) => Promise<void>): Promise<void> {
  const before = content.read(file);
  const events = await watch();
  try {
    await body(before);
  } finally {
    content.write(file, before);
    // The preview has taken the file back when its page renders again.
    await events.until('/en', (status) => status === 200).finally(() => events.close());
  }
}

describe('content dev', () => {
  it('serves every locale and shows a saved change after a reload event', async () => {
    for (const path of ['/', '/en', '/de/course00001']) expect((await fetch(dev.url + path)).status, path).toBe(200);
    await keeping('teachers/teacher.yaml', async () => {
      const events = await watch();
      content.edit('teachers/teacher.yaml', (t) => t.replace('en: Anna', 'en: Annabel'));
      await events.until('/en/teachers', (_, html) => html.includes('Annabel')).finally(() => events.close());
    });
  });

  it('shows the validation error with file and line instead of crashing, and recovers', async () => {
    await keeping('courses/course00000.yaml', async (before) => {
      const events = await watch();
      try {
        content.write('courses/course00000.yaml', `${before}colour: red\n`);
        const html = await events.until('/de', (status) => status === 500);
        // The real path of the content directory, not "content/…".
        expect(html).toContain(`${content.dir}/courses/course00000.yaml:`);
        expect(html).toContain('The key &quot;colour&quot; is not known here.');
        content.write('courses/course00000.yaml', before);
        await events.until('/de', (status) => status === 200);
      } finally {
        await events.close();
      }
    });
  });

  it('shows broken YAML as its error with file and line, and the page again once it is fixed', async () => {
    await keeping('courses/course00001.yaml', async (before) => {
      const events = await watch();
      try {
        content.write('courses/course00001.yaml', `${before}extra: [unclosed\n`);
        const html = await events.until('/en/course00001', (status) => status === 500);
        expect(html).toContain(`${content.dir}/courses/course00001.yaml:`);
        content.edit('courses/course00001.yaml', () => before.replace(/^( {2}en: )(.*)$/m, '$1Fixed title'));
        const fixed = await events.until('/en/course00001', (status) => status === 200);
        expect(fixed).toContain('Fixed title');
      } finally {
        await events.close();
      }
    });
  });

  it('shows each of two saves of the same size made within seconds (files written lately are read again whatever their stats)', async () => {
    const file = 'courses/course00000.yaml';
    await keeping(file, async (before) => {
      for (const word of ['Alpha', 'Omega']) {
        const events = await watch();
        content.write(file, before.replace(/^( {2}en: )(.*)$/m, `$1${word}`));
        const html = await events.until('/en/course00000', (_, page) => page.includes(word)).finally(() => events.close());
        expect(html).toContain(word);
      }
    });
  });
});
