import sharp from 'sharp';

/**
 * A 2400×1600 "camera photo" as a JPEG of quality 92: a colour with noise over it (incompressible
 * like a photo's grain), its colour seeded by `i`. What bench/photos.ts puts in the content and
 * bench/formats.ts encodes.
 */
export async function cameraPhoto(i: number): Promise<Buffer> {
  const noise = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .raw()
    .toBuffer();
  return sharp({ create: { width: 2400, height: 1600, channels: 3, background: { r: (i * 53) % 255, g: (i * 97) % 255, b: (i * 31) % 255 } } })
    .composite([{ input: noise, raw: { width: 2400, height: 1600, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 92 })
    .toBuffer();
}

/** Noise drawn at `width`×`height` and scaled up to 2400×1600: blobs the size of the scale-up; grey unless `colour`. */
async function blobs(width: number, height: number, sigma: number, colour = false): Promise<Buffer> {
  let noise = sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } } });
  if (!colour)
    noise = sharp(await noise.png().toBuffer())
      .greyscale()
      .toColourspace('srgb');
  const drawn = await noise.png().toBuffer();
  return sharp(drawn).resize(2400, 1600, { fit: 'fill', kernel: 'cubic' }).png().toBuffer();
}

/**
 * A 2400×1600 picture with a photo's structure as far as an encoder sees it: detail at every
 * scale (noise at a few sizes, scaled up: coarse shading, texture, grain), sharp edges (shapes
 * and letters) and smooth gradients. The noise of `cameraPhoto` alone has no structure: an
 * encoder that blurs it away entirely still scores well there, so the quality of formats is
 * compared on this one.
 */
export async function structuredPhoto(): Promise<Buffer> {
  const shapes = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="2400" height="1600">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c9d6e8"/><stop offset="1" stop-color="#6b4a2f"/></linearGradient></defs>
  <rect width="2400" height="1600" fill="url(#g)"/>
  <circle cx="700" cy="700" r="380" fill="#d8a27a"/><circle cx="620" cy="620" r="60" fill="#2b2b2b"/><circle cx="800" cy="620" r="60" fill="#2b2b2b"/>
  <rect x="1300" y="300" width="700" height="900" fill="#3d6b4f"/><rect x="1380" y="380" width="540" height="300" fill="#f4f1e8"/>
  <path d="M0 1350 Q 600 1150 1200 1400 T 2400 1300 V 1600 H 0 Z" fill="#8a6b3c"/>
  <text x="1400" y="560" font-family="sans-serif" font-size="120" fill="#1d1d1d">Studio</text>
  <text x="160" y="1520" font-family="serif" font-size="64" fill="#fafafa">Music · Kunst · Sprachen</text>
</svg>`);
  const layers = await Promise.all([blobs(24, 16, 40, true), blobs(150, 100, 50), blobs(600, 400, 30), blobs(2400, 1600, 10)]);
  return sharp(shapes)
    .composite(layers.map((input) => ({ input, blend: 'soft-light' as const })))
    .jpeg({ quality: 92 })
    .toBuffer();
}
