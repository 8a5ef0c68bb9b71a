import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer } from '../../cli/dev/dev-server.ts';
import { contentWithImages } from '../fixtures/images/photos.ts';

const work = mkdtempSync(join(tmpdir(), 'studio-images-dev-'));
let dev: Awaited<ReturnType<typeof startDevServer>>;

beforeAll(async () => {
  const content = await contentWithImages(join(work, 'content'));
  dev = await startDevServer({ content, host: '127.0.0.1', port: 0 });
}, 60_000);
afterAll(async () => {
  await dev?.close();
  rmSync(work, { recursive: true, force: true });
});

/** The page once its pictures are read (the preview shows the page at once, and its pictures after a reload). */
async function pageWithPictures(path: string): Promise<string> {
  for (;;) {
    const html = await (await fetch(dev.url + path)).text();
    if (html.includes('<picture')) return html;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('content dev, on a site with photos', () => {
  it('shows the pictures, each file encoded when first asked for', async () => {
    const html = await pageWithPictures('/en/vocal');
    const src = /<source type="image\/avif" srcSet="([^ ]+) /.exec(html)![1]!;
    const res = await fetch(dev.url + src);
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/avif']);
    expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(480);
    expect((await fetch(`${dev.url}/images/no-such-picture.jpg`)).status).toBe(404);
  }, 60_000);

  it('links each page to its share card and draws it, the course photo in it', async () => {
    const html = await pageWithPictures('/de/vocal');
    const href = /<a href="(\/__dev\/card\?url=[^"]+)">Share card<\/a>/.exec(html)?.[1];
    expect(href).toBe('/__dev/card?url=%2Fde%2Fvocal');
    const res = await fetch(dev.url + href);
    // A card with a photo is a JPEG (cli/images/card-model.ts).
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 630]);
    expect((await fetch(`${dev.url}/__dev/card?url=/no-such-page`)).status).toBe(404);
  }, 60_000);
});
