import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexImages } from '../../cli/images/index-images.ts';
import { processImages } from '../../cli/images/process-images.ts';
import { cardLayout, drawCard, shareCards } from '../../cli/images/share-cards.ts';
import { imagePlans, prepareImages, writeImages } from '../../cli/images/stage.ts';
import { resolveSite } from '../../cli/resolve/resolve.ts';
import { createTranslator } from '../../cli/resolve/translator.ts';
import { walk } from '../../cli/util/walk.ts';
import { validateContent } from '../../cli/validate/validate.ts';
import type { PageModel } from '../../templates/model.ts';
import { contentWithImages, drawing } from '../fixtures/images/photos.ts';
import { runCliProcess } from '../helpers/cli.ts';

const TODAY = '2026-11-22';
const work = mkdtempSync(join(tmpdir(), 'studio-images-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function build(content: string, out: string, env: Record<string, string> = {}, renderer?: 'vike') {
  const r = await runCliProcess(
    ['build', '--content', content, '--out', out, '--today', TODAY, '--format', 'json', ...(renderer ? ['--renderer', renderer] : [])],
    { env },
  );
  expect(r.code, r.stderr).toBe(0);
}

const html = (site: string, file: string) => readFileSync(join(site, file), 'utf8');
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
/** The `<picture>` elements of a page with the given class: their sources' and img's attributes. */
function pictures(page: string, className: string) {
  return [...page.matchAll(new RegExp(`<picture class="${className}">(.*?)</picture>`, 'g'))].map((m) => ({
    sources: [...m[1]!.matchAll(/<source[^>]*>/g)].map((s) => ({
      type: attr(s[0], 'type'),
      srcSet: attr(s[0], 'srcSet') ?? attr(s[0], 'srcset'),
      sizes: attr(s[0], 'sizes'),
    })),
    img: /<img[^>]*>/.exec(m[1]!)![0],
  }));
}
/** "/images/a-400.avif 400w, …" → [path, width]. */
const entries = (srcSet: string) =>
  srcSet
    .split(', ')
    .map((e) => e.split(' ') as [string, string])
    .map(([url, w]) => [url.slice(1), Number(w.slice(0, -1))] as const);

describe('a site with photos', () => {
  const content = join(work, 'content');
  const site = join(work, 'site');
  beforeAll(async () => {
    await contentWithImages(content);
    await build(content, site);
  }, 240_000);

  it('shows the course photo on its page in AVIF and JPEG at the widths of the layout, fetched first', async () => {
    const [photo] = pictures(html(site, 'vocal.html'), 'page-photo');
    expect(photo, 'the course page has its photo').toBeDefined();
    expect(photo!.sources.map((s) => s.type)).toEqual(['image/avif']);
    const { img } = photo!;
    expect(attr(img, 'fetchPriority') ?? attr(img, 'fetchpriority')).toBe('high');
    expect(img).not.toMatch(/loading=/);
    expect(attr(img, 'alt')).toBe('Урок вокала в студии');
    expect(attr(img, 'sizes')).toBe('(min-width: 48rem) 46rem, calc(100vw - 2rem)');
    const width = Number(attr(img, 'width'));
    const height = Number(attr(img, 'height'));
    expect([width, height]).toEqual([1280, 720]);
    // Every file exists, in its format, at the width its srcset states and the img's shape.
    for (const [format, srcSet] of [
      ['avif', photo!.sources[0]!.srcSet!],
      ['jpeg', attr(img, 'srcSet') ?? attr(img, 'srcset')!],
    ] as const) {
      expect(entries(srcSet).map(([, w]) => w)).toEqual([480, 800, 1280]);
      for (const [path, w] of entries(srcSet)) {
        const meta = await sharp(join(site, path)).metadata();
        expect([meta.format === 'heif' ? 'avif' : meta.format, meta.width, meta.height], path).toEqual([format, w, Math.round((w * height) / width)]);
      }
    }
  });

  it('loads the home photo first and the course cards lazily; a decorative banner picture has an empty alt', () => {
    const home = html(site, 'en.html');
    const [photo] = pictures(home, 'home-photo');
    expect(attr(photo!.img, 'fetchPriority') ?? attr(photo!.img, 'fetchpriority')).toBe('high');
    expect(attr(photo!.img, 'alt')).toBe('The studio room');
    const cards = pictures(home, 'photo');
    expect(cards.length).toBe(2); // the banner and the vocal course
    for (const c of cards) {
      expect(attr(c.img, 'loading')).toBe('lazy');
      expect(c.img).not.toMatch(/fetchpriority/i);
    }
    // The courses come before the offers on the home page (grouped for phones, issue #37).
    expect(cards.map((c) => attr(c.img, 'alt'))).toEqual(['A singing lesson in the studio', '']);
    expect(attr(cards[0]!.img, 'sizes')).toBe('(min-width: 48rem) 24rem, calc(100vw - 2rem)');
  });

  it('shows the teacher portrait on the teachers page', () => {
    const teachers = [...walk(site)].find((f) => /^de\/.*\.html$/.test(f) && html(site, f).includes('class="portrait"'));
    expect(teachers, 'a German page with a portrait').toBeDefined();
    const [portrait] = pictures(html(site, teachers!), 'portrait');
    expect(attr(portrait!.img, 'alt')).toBe('Die Gesangslehrerin');
    expect([attr(portrait!.img, 'width'), attr(portrait!.img, 'height')]).toEqual(['320', '320']);
  });

  it('gives every page to be shared a 1200×630 card in its language (a JPEG with a photo, else a PNG), named in og:image with its size and alt', async () => {
    const pages = [...walk(site)].filter((f) => f.endsWith('.html') && !f.startsWith('404'));
    let [cards, photoCards] = [0, 0];
    for (const file of pages) {
      const page = html(site, file);
      if (page.includes('name="robots" content="noindex"')) {
        expect(page).not.toMatch(/og:image/);
        expect(page).toContain('<meta name="twitter:card" content="summary"/>');
        continue;
      }
      const url = /<meta property="og:image" content="([^"]+)"/.exec(page)?.[1];
      expect(url, file).toMatch(/^https:\/\/studio\.example\/cards\/.+\.(png|jpg)$/);
      expect(page).toContain('<meta property="og:image:width" content="1200"/>');
      expect(page).toContain('<meta property="og:image:height" content="630"/>');
      expect(page).toMatch(/<meta property="og:image:alt" content="[^"]+"\/>/);
      expect(page).toContain('<meta name="twitter:card" content="summary_large_image"/>');
      expect(page).toMatch(/<meta property="og:site_name" content="[^"]+"\/>/);
      const meta = await sharp(join(site, new URL(url!).pathname)).metadata();
      expect([meta.format, meta.width, meta.height], url).toEqual([url!.endsWith('.jpg') ? 'jpeg' : 'png', 1200, 630]);
      if (url!.endsWith('.jpg')) {
        photoCards++;
        // WhatsApp shows no og:image of about 300 KB or more; a photo card as PNG was about that.
        expect(readFileSync(join(site, new URL(url!).pathname)).length, url).toBeLessThan(150_000);
      }
      cards++;
    }
    expect(cards).toBeGreaterThan(80);
    expect(photoCards, 'course cards with a photo').toBeGreaterThan(0);
  });

  it("draws each card with its language's words (the card's layout, its lines of text), and the build wrote that very card", async () => {
    const validated = validateContent(content, { today: TODAY });
    const images = await indexImages(content, validated.pictures);
    const models = resolveSite(validated.content, createTranslator(validated.content), { today: TODAY, images });
    const card = (url: string) => models.find((m: PageModel) => m.url === url)!.card!;
    const texts = async (url: string) => {
      const layout = await cardLayout(card(url));
      return [...layout.name, ...layout.title, ...layout.facts].map((l) => l.text).join(' ');
    };
    const [ru, en, de] = await Promise.all(['/vocal', '/en/vocal', '/de/vocal'].map(texts));
    expect(ru).toContain('Вокал');
    expect(en).toContain('Singing');
    expect(de).toContain('Gesangsunterricht');
    expect(de).not.toContain('Вокал');
    // Age group and price, in German; the photo is in the card.
    expect(card('/de/vocal')).toMatchObject({ locale: 'de', title: 'Gesangsunterricht', photo: expect.stringMatching(/^images\/lesson-.+\.jpg$/) });
    expect(de).toContain('€');
    expect((await cardLayout(card('/de/vocal'))).boxes.photo).toMatchObject({ y: 0, height: 630 });
    expect((await drawCard(card('/de/vocal'), site)).equals(readFileSync(join(site, card('/de/vocal').file)))).toBe(true);
  });

  it('encodes each picture once: a second run takes every file from the cache, byte for byte', async () => {
    const validated = validateContent(content, { today: TODAY });
    const index = await indexImages(content, validated.pictures);
    const plans = imagePlans(validated.pictures, index);
    const cacheDir = join(work, 'image-cache');
    const [a, b] = [join(work, 'enc-a'), join(work, 'enc-b')];
    const first = await processImages(plans, { bytes: (f) => index.bytes.get(f)!, cacheDir, outDir: a });
    const second = await processImages(plans, { bytes: (f) => index.bytes.get(f)!, cacheDir, outDir: b });
    expect(first.encoded).toBe(first.files.length);
    expect(second).toMatchObject({ encoded: 0, reused: first.files.length });
    for (const f of first.files) expect(readFileSync(join(b, f)).equals(readFileSync(join(a, f))), f).toBe(true);
    const cards = resolveSite(validated.content, createTranslator(validated.content), { today: TODAY, images: index })
      .flatMap((m) => m.card ?? [])
      .slice(0, 6);
    const cardCache = join(work, 'card-cache');
    expect((await shareCards(cards, { cacheDir: cardCache, outDir: a })).drawn).toBe(6);
    expect(await shareCards(cards, { cacheDir: cardCache, outDir: a })).toMatchObject({ drawn: 0, reused: 6 });
  }, 120_000);

  it('makes each file once in a build that ignores the caches (STUDIO_NO_CACHE=1): the stage writes the files it made before staging', async () => {
    const validated = validateContent(content, { today: TODAY });
    process.env.STUDIO_NO_CACHE = '1';
    try {
      const prepared = await prepareImages(content, validated.pictures);
      expect(prepared.encoded.encoded).toBe(prepared.encoded.files.length);
      const written = await writeImages(prepared, [], join(work, 'no-cache'));
      expect(written.images).toMatchObject({ encoded: 0, reused: prepared.encoded.files.length });
    } finally {
      delete process.env.STUDIO_NO_CACHE;
    }
  }, 120_000);

  it('writes the pages with pictures, the pictures and the cards byte for byte as Vike does', async () => {
    const viaVike = join(work, 'vike');
    await build(content, viaVike, {}, 'vike');
    const normal = (dir: string, f: string) =>
      f.endsWith('.html')
        ? html(dir, f)
            .replace(/"\/assets\/[^"]+\.css"/g, 'STYLESHEET')
            .replace(/"\/assets\/[^"]+\.js"/g, 'SCRIPT')
        : readFileSync(join(dir, f)).toString('base64');
    const files = [...walk(site)].filter((f) => /\.html$|^images\/|^cards\//.test(f));
    expect([...walk(viaVike)].filter((f) => /\.html$|^images\/|^cards\//.test(f))).toEqual(files);
    for (const f of files) expect(normal(viaVike, f), f).toBe(normal(site, f));
  }, 240_000);

  it.each([
    ['a photo changed', async () => writeFileSync(join(content, 'images/vocal/lesson.jpg'), await drawing(1600, 1067, 30))],
    // The other course pages are taken over without their pages rendered again; their cards come from the cache.
    [
      'a course title changed',
      () =>
        writeFileSync(
          join(content, 'courses/chess.yaml'),
          readFileSync(join(content, 'courses/chess.yaml'), 'utf8').replace('de: Schach', 'de: Schach für Kinder'),
        ),
    ],
  ])(
    'rebuilds after %s exactly as a clean build does',
    async (_what, edit) => {
      await edit();
      await build(content, site);
      const clean = join(work, 'clean');
      rmSync(clean, { recursive: true, force: true });
      await build(content, clean, { STUDIO_NO_CACHE: '1' });
      const files = [...walk(clean)];
      expect([...walk(site)]).toEqual(files);
      for (const f of files) expect(readFileSync(join(site, f)).equals(readFileSync(join(clean, f))), f).toBe(true);
    },
    240_000,
  );
});

describe('validate, on the pictures a site names', () => {
  it("knows content/images/ as the pictures' folder: a site with photos validates without a word about it", async () => {
    const content = await contentWithImages(join(work, 'clean'));
    const validated = validateContent(content, { today: TODAY });
    expect(validated.problems.filter((p) => p.file.startsWith('images')).map((p) => `${p.code}: ${p.file}`)).toEqual([]);
    expect(validated.ok).toBe(true);
  });

  it('names a missing, an unsupported, a damaged, a too small and a huge picture at the line of its file, and a missing alt text', async () => {
    const content = await contentWithImages(join(work, 'validate'));
    const images = join(content, 'images');
    writeFileSync(join(images, 'vocal/lesson.jpg'), await drawing(600, 400, 200)); // a course photo needs 800 pixels
    writeFileSync(join(images, 'studio.jpg'), 'not a picture at all\n');
    writeFileSync(join(images, 'logo.png'), Buffer.from('89504e470d0a1a0a0000', 'hex')); // a PNG cut off after its signature
    writeFileSync(
      join(images, 'banners/school-prep.png'),
      await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
        .png()
        .toBuffer(),
    );
    const teacher = join(content, 'teachers/vocal-coach.yaml');
    writeFileSync(
      teacher,
      readFileSync(teacher, 'utf8')
        .replace('teachers/vocal-coach.webp', 'teachers/gone.webp')
        .replace(/ {2}alt: \{ ru: Педагог по вокалу, en: [^}]+\}\n/, '  alt: { ru: Педагог по вокалу }\n'),
    );
    const { problems } = validateContent(content, { today: TODAY });
    const found = problems.filter((p) => p.code.startsWith('image-')).map((p) => `${p.file} ${p.line}:${p.column} ${p.severity} ${p.code}: ${p.message}`);
    expect(found).toEqual([
      'banners.yaml 16:18 warning image-huge: The picture images/banners/school-prep.png is very large (0.1 MB, 8000×6000).',
      'courses/vocal.yaml 10:9 error image-too-small: The picture images/vocal/lesson.jpg is 600 pixels wide; a course photo needs at least 800.',
      'site.yaml 8:9 error image-unsupported: The file images/studio.jpg is not a JPEG, PNG, WebP or AVIF picture.',
      'site.yaml 10:15 error image-unsupported: The picture images/logo.png is damaged: its size cannot be read.',
      'teachers/vocal-coach.yaml 12:9 error image-missing: There is no picture images/teachers/gone.webp in the content folder.',
      'teachers/vocal-coach.yaml 13:3 error image-alt-missing: The alt text of images/teachers/gone.webp has no English version.',
      'teachers/vocal-coach.yaml 13:3 error image-alt-missing: The alt text of images/teachers/gone.webp has no German version.',
    ]);
    const tooSmall = problems.find((p) => p.code === 'image-too-small')!;
    expect([tooSmall.expected, tooSmall.found, tooSmall.hint]).toEqual([
      'at least 800 pixels wide',
      '600×400 pixels',
      expect.stringContaining('larger version'),
    ]);
  });

  it('stops the build at the line of a picture whose first bytes are fine but whose data is cut off (exit 1, no stack trace)', async () => {
    const content = await contentWithImages(join(work, 'cut-off'));
    const photo = join(content, 'images/vocal/lesson.jpg');
    writeFileSync(photo, readFileSync(photo).subarray(0, 20_000));
    // validate decodes the pictures it has not seen before (#34): the build stops there, at the same line.
    expect(
      validateContent(content, { today: TODAY })
        .problems.filter((p) => p.code.startsWith('image-'))
        .map((p) => `${p.file} ${p.line}`),
    ).toEqual(['courses/vocal.yaml 10']);
    const r = await runCliProcess(['build', '--content', content, '--out', join(work, 'cut-off-site'), '--today', TODAY, '--format', 'json'], {
      env: { STUDIO_NO_CACHE: '1' },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    const problems = (JSON.parse(r.stdout) as { problems: { file: string; line: number; column: number; code: string; message: string }[] }).problems.filter(
      (p) => p.code.startsWith('image-'),
    );
    expect(problems.map((p) => `${p.file} ${p.line}:${p.column} ${p.code}`)).toEqual(['courses/vocal.yaml 10:9 image-unsupported']);
    expect(problems[0]!.message).toMatch(/^The picture images\/vocal\/lesson\.jpg is damaged: it cannot be decoded \(.+\)\.$/);
  }, 120_000);

  it('reads only regular files inside the content folder: a link out of it is not followed', async () => {
    const { symlinkSync } = await import('node:fs');
    const content = await contentWithImages(join(work, 'validate-link'));
    const outside = join(work, 'outside.jpg');
    writeFileSync(outside, await drawing(1600, 1067, 10));
    rmSync(join(content, 'images/vocal/lesson.jpg'));
    symlinkSync(outside, join(content, 'images/vocal/lesson.jpg'));
    const { problems } = validateContent(content, { today: TODAY });
    expect(problems.filter((p) => p.code.startsWith('image-')).map((p) => `${p.file} ${p.code}: ${p.message}`)).toEqual([
      'courses/vocal.yaml image-missing: The picture images/vocal/lesson.jpg is not a regular file inside the content folder.',
    ]);
  });
});
