// npx tsx bench/formats.ts [RUNS] — what each format and encoder setting costs, the README's table
// (pictures, "What each format costs"): one 1280×720 version of a photo-like picture (structuredPhoto in bench/camera-photo.ts,
// cut to 16:9 and scaled as the build does), encoded RUNS times (default 7) per setting, in turns, on one
// libvips thread; CPU ms of one encode (the median), its KB, and its PSNR in dB against the scaled picture.
import sharp, { type Sharp } from 'sharp';
import { ENCODING } from '../cli/schema/image-uses.ts';
import { structuredPhoto } from './camera-photo.ts';

const runs = Number(process.argv[2] ?? 7);
sharp.concurrency(1);
sharp.cache(false);

type Setting = { name: string; encode: (image: Sharp) => Sharp };
const mozjpeg = { quality: 78, mozjpeg: true, progressive: true } as const;
const settings: Setting[] = [
  { name: 'AVIF quality 50, effort 0', encode: (i) => i.avif({ quality: 50, effort: 0 }) },
  { name: 'AVIF quality 50, effort 0, 4:2:0', encode: (i) => i.avif({ quality: 50, effort: 0, chromaSubsampling: '4:2:0' }) },
  { name: 'AVIF quality 53, effort 0, 4:2:0', encode: (i) => i.avif({ quality: 53, effort: 0, chromaSubsampling: '4:2:0' }) },
  {
    name: 'AVIF quality 50, effort 0, 4:2:0, tuned for PSNR',
    encode: (i) => i.avif({ quality: 50, effort: 0, chromaSubsampling: '4:2:0', tune: 'psnr' }),
  },
  {
    name: 'AVIF quality 50, effort 0, 4:2:0, tuned for SSIM',
    encode: (i) => i.avif({ quality: 50, effort: 0, chromaSubsampling: '4:2:0', tune: 'ssim' }),
  },
  { name: 'AVIF quality 50, effort 2', encode: (i) => i.avif({ quality: 50, effort: 2 }) },
  { name: 'AVIF quality 50, effort 4', encode: (i) => i.avif({ quality: 50, effort: 4 }) },
  { name: 'WebP quality 75, effort 4', encode: (i) => i.webp({ quality: 75, effort: 4 }) },
  { name: 'WebP quality 75, effort 2', encode: (i) => i.webp({ quality: 75, effort: 2 }) },
  { name: 'JPEG quality 78, mozjpeg, progressive', encode: (i) => i.jpeg(mozjpeg) },
  { name: 'JPEG quality 78, mozjpeg, progressive, no trellis', encode: (i) => i.jpeg({ ...mozjpeg, trellisQuantisation: false }) },
  {
    name: 'JPEG quality 78, mozjpeg, progressive, no trellis, no scan search',
    encode: (i) => i.jpeg({ ...mozjpeg, trellisQuantisation: false, optimiseScans: false }),
  },
  {
    name: 'JPEG quality 78, mozjpeg, progressive, no trellis, no scan search, no deringing',
    encode: (i) => i.jpeg({ ...mozjpeg, trellisQuantisation: false, optimiseScans: false, overshootDeringing: false }),
  },
  { name: 'JPEG quality 78, mozjpeg, progressive, no scan search', encode: (i) => i.jpeg({ ...mozjpeg, optimiseScans: false }) },
  ...[70, 72, 74, 76].map((quality) => ({
    name: `JPEG quality ${quality}, mozjpeg, progressive, no trellis, no scan search`,
    encode: (i: Sharp) => i.jpeg({ ...mozjpeg, quality, trellisQuantisation: false, optimiseScans: false }),
  })),
  { name: 'JPEG quality 78, libjpeg-turbo, progressive', encode: (i) => i.jpeg({ quality: 78, progressive: true }) },
  {
    name: 'JPEG quality 78, libjpeg-turbo tables 3, progressive',
    encode: (i) => i.jpeg({ quality: 78, progressive: true, quantisationTable: 3 }),
  },
  { name: 'JPEG quality 78, libjpeg-turbo, baseline', encode: (i) => i.jpeg({ quality: 78 }) },
  { name: 'AVIF as the build encodes it (ENCODING)', encode: (i) => i.avif(ENCODING.avif) },
  { name: 'JPEG as the build encodes it (ENCODING)', encode: (i) => i.jpeg(ENCODING.jpeg) },
];

// The version a course page shows at 1280: the photo cut to 16:9 around its centre, scaled down.
const photo = await structuredPhoto();
const { data, info } = await sharp(photo).resize(1280, 720, { fit: 'cover' }).raw().toBuffer({ resolveWithObject: true });
const raw = { width: info.width, height: info.height, channels: info.channels };

function psnr(decoded: Buffer): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += (data[i]! - decoded[i]!) ** 2;
  return 10 * Math.log10(255 ** 2 / (sum / data.length));
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// Round by round, every setting once a round: a machine whose speed drifts moves every row alike.
const times = settings.map((): number[] => []);
const bytes = settings.map(() => Buffer.alloc(0));
for (let run = -1; run < runs; run++)
  for (const [n, { encode }] of settings.entries()) {
    const start = cpuMs();
    bytes[n] = await encode(sharp(data, { raw })).toBuffer();
    if (run >= 0) times[n]!.push(cpuMs() - start);
  }

console.log('| format and setting | CPU ms | KB | PSNR |');
console.log('| --- | ---: | ---: | ---: |');
for (const [n, { name }] of settings.entries()) {
  const median = times[n]!.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
  const decoded = await sharp(bytes[n]).removeAlpha().raw().toBuffer();
  console.log(`| ${name} | ${Math.round(median)} | ${Math.round(bytes[n]!.length / 1024)} | ${psnr(decoded).toFixed(1)} |`);
}
