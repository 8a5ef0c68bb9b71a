// Pictures and titles that must not take the build down (#35 section 4), and photo messages that
// name the real problem (#34 section 3). The hostile files are made here with sharp (a flat colour
// compresses to little) or as sparse files: nothing big is committed.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { cardTexts } from '../../cli/images/card-text.ts';
import { processImages } from '../../cli/images/process-images.ts';
import { cardLayout, drawCard } from '../../cli/images/share-cards.ts';
import { imagePlans, prepareImages } from '../../cli/images/stage.ts';
import { resolveSite } from '../../cli/resolve/resolve.ts';
import { createTranslator } from '../../cli/resolve/translator.ts';
import { validateContent } from '../../cli/validate/validate.ts';
import type { CardModel } from '../../templates/model.ts';
import { contentWithImages } from '../fixtures/images/photos.ts';
import { runCliProcess } from '../helpers/cli.ts';

const TODAY = '2026-11-22';
const work = mkdtempSync(join(tmpdir(), 'studio-hostile-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const flat = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#7a9' } });
/** A JPEG that says it is `width`×`height` (its frame header rewritten): what a decompression bomb looks like to whoever reads its header. */
async function claiming(width: number, height: number): Promise<Buffer> {
  const jpeg = await flat(64, 64).jpeg({ progressive: true }).toBuffer();
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc2]));
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}
/** The image problems validate finds, one line each: "file line:column severity code: message". */
function imageProblems(content: string): string[] {
  return validateContent(content, { today: TODAY })
    .problems.filter((p) => p.code.startsWith('image-'))
    .map((p) => `${p.file} ${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`);
}

describe('validate refuses pictures the build cannot take', () => {
  it('a decompression bomb (a small progressive JPEG of 16000×16000) is an error at its line, and a 45-megapixel camera photo is fine', async () => {
    const content = await contentWithImages(join(work, 'bomb'));
    writeFileSync(join(content, 'images/vocal/lesson.jpg'), await claiming(16000, 16000));
    writeFileSync(join(content, 'images/studio.jpg'), await flat(8256, 5504).jpeg({ quality: 50 }).toBuffer());
    expect(imageProblems(content)).toEqual([
      'courses/vocal.yaml 10:9 error image-too-large: The picture images/vocal/lesson.jpg has 256 megapixels (16000×16000); the build reads pictures of at most 100 megapixels.',
      'site.yaml 8:9 warning image-huge: The picture images/studio.jpg is very large (0.3 MB, 8256×5504).',
    ]);
  }, 60_000);

  it('a picture of 2 GiB or more is refused by its size, not read (a sparse file)', async () => {
    const content = await contentWithImages(join(work, 'sparse'));
    const file = join(content, 'images/vocal/lesson.jpg');
    const head = readFileSync(file).subarray(0, 4096);
    const fd = openSync(file, 'w');
    writeSync(fd, head, 0, head.length, 0);
    writeSync(fd, Buffer.from([0xff, 0xd9]), 0, 2, 2 ** 31 + 10);
    closeSync(fd);
    expect(imageProblems(content)).toEqual([
      'courses/vocal.yaml 10:9 error image-too-large: The file images/vocal/lesson.jpg is 2048 MB; the build reads picture files of at most 256 MB.',
    ]);
    const r = await runCliProcess(['build', '--content', content, '--out', join(work, 'sparse-site'), '--today', TODAY]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout + r.stderr).not.toMatch(/internal error/i);
  }, 60_000);

  it('a camera JPEG with over 256 KB of metadata before its frame is read to its frame and builds', async () => {
    const content = await contentWithImages(join(work, 'metadata'));
    const file = join(content, 'images/vocal/lesson.jpg');
    const jpeg = readFileSync(file);
    // Six APP15 segments of 60 KB each (a camera's maker notes and previews): 360 KB before the frame.
    const segment = Buffer.concat([Buffer.from([0xff, 0xef, 0xea, 0x62]), Buffer.alloc(60_000, 0x20)]);
    writeFileSync(file, Buffer.concat([jpeg.subarray(0, 2), ...Array(6).fill(segment), jpeg.subarray(2)]));
    expect((await sharp(file).metadata()).width, 'sharp reads it').toBe(1600);
    expect(imageProblems(content)).toEqual([]);
  });

  it('a 200000×1 strip is too small for the shape it is cropped to, naming the size after the crop', async () => {
    const content = await contentWithImages(join(work, 'strip'));
    writeFileSync(join(content, 'images/vocal/lesson.jpg'), await flat(60000, 1).jpeg().toBuffer());
    writeFileSync(join(content, 'images/logo.png'), await flat(200000, 1).png().toBuffer());
    expect(imageProblems(content)).toEqual([
      'courses/vocal.yaml 10:9 error image-too-small: The picture images/vocal/lesson.jpg is 60000×1 pixels; cropped to the 3:2 shape of a course photo it keeps only 2×1, and it needs at least 800 pixels wide.',
      'site.yaml 10:15 error image-too-small: The picture images/logo.png is 200000×1 pixels; shown 192 pixels wide as the logo, it would be only 0 pixels high.',
    ]);
  });

  it('a photo cut off in its data (an interrupted download) is found by validate at its line; once decoded, a picture is not decoded again', async () => {
    const content = await contentWithImages(join(work, 'cut-off'));
    const photo = join(content, 'images/vocal/lesson.jpg');
    writeFileSync(photo, readFileSync(photo).subarray(0, 20_000));
    const [problem, ...others] = imageProblems(content);
    expect(others).toEqual([]);
    expect(problem).toMatch(
      /^courses\/vocal\.yaml 10:9 error image-unsupported: The picture images\/vocal\/lesson\.jpg is damaged: it cannot be decoded \(.+\)\.$/,
    );
  });

  it('names SVG, HEIC and PDF files as what they are, with what to export instead', async () => {
    const content = await contentWithImages(join(work, 'formats'));
    writeFileSync(join(content, 'images/logo.png'), '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>\n');
    writeFileSync(join(content, 'images/studio.jpg'), Buffer.concat([Buffer.from('000000186674797068656963', 'hex'), Buffer.alloc(64)]));
    writeFileSync(join(content, 'images/vocal/lesson.jpg'), '%PDF-1.7\n%âãÏÓ\n1 0 obj\n');
    const { problems } = validateContent(content, { today: TODAY });
    expect(problems.filter((p) => p.code.startsWith('image-')).map((p) => [p.file, p.message, p.hint, p.found])).toEqual([
      [
        'courses/vocal.yaml',
        'The file images/vocal/lesson.jpg is a PDF document, not a picture.',
        'Export the page as a picture (PNG for drawings and logos, JPEG for photos), at least 800 pixels wide, and name that file here.',
        'PDF',
      ],
      [
        'site.yaml',
        'The file images/studio.jpg is a HEIC photo (as an iPhone saves them); the site shows only JPEG, PNG, WebP or AVIF pictures.',
        expect.stringContaining('Export the photo as JPEG'),
        'HEIC',
      ],
      [
        'site.yaml',
        'The file images/logo.png is an SVG drawing; the site shows only JPEG, PNG, WebP or AVIF pictures.',
        'Export the drawing as PNG, at least 192 pixels wide, and name the .png file here.',
        'SVG',
      ],
    ]);
  });

  it('warns at the line of an alt text given to a decorative picture', async () => {
    const content = await contentWithImages(join(work, 'decorative'));
    const banners = join(content, 'banners.yaml');
    writeFileSync(
      banners,
      readFileSync(banners, 'utf8').replace(
        'image: { file: banners/school-prep.png, decorative: true }',
        'image: { file: banners/school-prep.png, decorative: true, alt: { ru: Рисунок } }',
      ),
    );
    expect(imageProblems(content)).toEqual([
      'banners.yaml 16:61 warning image-alt-decorative: The picture images/banners/school-prep.png is marked "decorative: true" and also has an alt text; a decorative picture gets none, so this text is never read.',
    ]);
  });
});

describe('the build decodes each original once', () => {
  it('reads an original once for all its versions (not once per version)', async () => {
    const content = await contentWithImages(join(work, 'once'));
    const { pictures } = validateContent(content, { today: TODAY });
    const { index } = await prepareImages(content, pictures);
    const plans = imagePlans(pictures, index).filter((p) => p.file === 'studio.jpg');
    expect(plans.flatMap((p) => p.variants).length).toBeGreaterThan(5);
    let reads = 0;
    await processImages(plans, {
      bytes: (f) => {
        reads++;
        return index.bytes.get(f)!;
      },
      cacheDir: join(work, 'once-cache'),
      readCache: false,
    });
    expect(reads).toBe(1);
  }, 60_000);
});

describe('share cards show what they can show truthfully, in bounded time', () => {
  const card = (over: Partial<CardModel>): CardModel => ({ file: 'cards/x.png', locale: 'ru', siteName: 'Студия', title: 'Вокал', ...over });
  /** The card's lines as it draws them (its layout: each line's text and baseline). */
  const lines = async (c: CardModel) => {
    const layout = await cardLayout(c);
    return [...layout.name, ...layout.title, ...layout.facts].map((l) => ({ y: l.baseline, text: l.text }));
  };

  it('never shows a "TODO:" placeholder: the studio name still to be given is left out, the title stays', async () => {
    const content = await contentWithImages(join(work, 'todo'));
    const { content: data } = validateContent(content, { today: TODAY });
    const models = resolveSite(data, createTranslator(data), { today: TODAY });
    const cards = models.flatMap((m) => m.card ?? []);
    expect(cards.length).toBeGreaterThan(80);
    expect(cards.filter((c) => JSON.stringify(c).includes('TODO'))).toEqual([]);
    expect(models.find((m) => m.url === '/vocal')!.og.image!.alt).toBe('Вокал');
  });

  it('keeps a long title to three lines and the age and price on the card (lineClamp has no effect in satori)', async () => {
    const placed = await lines(card({ title: 'Очень длинное название курса '.repeat(12), age: '6–16 лет', price: '2 500 ₽ за занятие' }));
    const price = placed.find((t) => t.text.includes('₽'));
    expect(price, 'the price is drawn').toBeDefined();
    expect(price!.text).toContain('6–16 лет');
    expect(price!.y).toBeLessThan(630);
    const titleLines = placed.filter((t) => t.text.includes('длинное'));
    expect(titleLines.length).toBe(3);
    expect(Math.max(...titleLines.map((t) => t.y))).toBeLessThan(price!.y - 60);
    expect(placed.at(-1)!.y).toBeLessThan(630 - 40);
  });

  it('leaves out characters its fonts lack (emoji, CJK, Arabic, Hebrew) rather than drawing boxes', async () => {
    const shown = (await lines(card({ title: 'Хор 🎵 合唱 جوقة מקהלה Chor' }))).map((t) => t.text).join('');
    expect(shown).toContain('Хор');
    expect(shown).toContain('Chor');
    expect(shown).not.toMatch(/[\u{1F300}-\u{1FAFF}\u4e00-\u9fff\u0600-\u06ff\u0590-\u05ff]/u);
  });

  it('draws a card whose title is one 60,000-letter word, cut to what three lines hold', async () => {
    const title = 'А'.repeat(60_000);
    expect(cardTexts(card({ title }), 1080).title.length).toBeLessThan(150);
    const png = await drawCard(card({ title }), work);
    expect((await sharp(png).metadata()).width).toBe(1200);
  }, 60_000);
});
