// npx tsx bench/encode-photos.ts DIR [N] — the CPU one course photo's versions cost: the first N
// (default 6) course photos of a folder bench/photos.ts made (DIR/images/course-*.jpg), each planned
// as a course's card and page and encoded by processImages as a cold build does (decoded once,
// every width in every format), into a fresh cache folder. Prints CPU and wall seconds in all and
// the CPU per photo.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSharp } from '../cli/images/load-sharp.ts';
import { planPicture } from '../cli/images/plan.ts';
import { processImages } from '../cli/images/process-images.ts';

const [dir, n = '6'] = process.argv.slice(2);
if (!dir) throw new Error('usage: npx tsx bench/encode-photos.ts DIR [N]');
const files = readdirSync(join(dir, 'images'))
  .filter((f) => /^course-\d+\.jpg$/.test(f))
  .slice(0, Number(n));
const bytes = new Map(files.map((f) => [f, readFileSync(join(dir, 'images', f))]));
const plans = await Promise.all(
  files.map(async (file) => {
    const { width, height } = await loadSharp()(bytes.get(file)!).metadata();
    return (['courseCard', 'coursePage'] as const).map((use) => planPicture({ file }, { hash: file, width, height }, use));
  }),
);
const cacheDir = mkdtempSync(join(tmpdir(), 'encode-photos-'));
const cpu = process.cpuUsage();
const wall = performance.now();
const set = await processImages(plans.flat(), { bytes: (f) => bytes.get(f)!, cacheDir, readCache: false });
const { user, system } = process.cpuUsage(cpu);
rmSync(cacheDir, { recursive: true, force: true });
const seconds = (user + system) / 1e6;
console.log(
  `${files.length} photos, ${set.encoded} files: CPU ${seconds.toFixed(2)} s (${(seconds / files.length).toFixed(2)} s a photo), wall ${((performance.now() - wall) / 1000).toFixed(2)} s; sharp's threads per encode: ${loadSharp().concurrency()}`,
);
