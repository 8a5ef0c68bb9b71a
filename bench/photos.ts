// npx tsx bench/photos.ts DIR [N] — a copy of the shipped content in DIR with N (default 50) camera
// photos of 2400×1600, drawn with sharp (noise over a gradient, so they encode like photos): one per
// course, teacher and banner, the home photo and the logo, then more banners that show the rest.
// What the cold build of a real studio's pictures costs: time `content build` of DIR with STUDIO_NO_CACHE=1.
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cameraPhoto as photo } from './camera-photo.ts';

const [dir, n = '50'] = process.argv.slice(2);
if (!dir) throw new Error('usage: npx tsx bench/photos.ts DIR [N]');
const count = Number(n);
const root = new URL('../content/', import.meta.url).pathname;
cpSync(root, dir, { recursive: true });
mkdirSync(join(dir, 'images'), { recursive: true });

let made = 0;
const image = async (name: string, alt: string) => {
  writeFileSync(join(dir, 'images', name), await photo(made++));
  return `image:\n  file: ${name}\n  alt: { ru: ${alt}, en: ${alt}, de: ${alt} }\n`;
};
const insertBefore = (file: string, find: string, text: string) => {
  const path = join(dir, file);
  const yaml = readFileSync(path, 'utf8');
  if (!yaml.includes(find)) throw new Error(`${file} has no "${find}"`);
  writeFileSync(path, yaml.replace(find, `${text}${find}`));
};
for (const file of readdirSync(join(dir, 'courses')).sort())
  if (made < count) insertBefore(`courses/${file}`, '\nsummary:', `\n${(await image(`course-${made}.jpg`, `Photo ${made}`)).trimEnd()}`);
for (const file of readdirSync(join(dir, 'teachers')).sort())
  if (made < count) insertBefore(`teachers/${file}`, '\nedu:', `\n${(await image(`teacher-${made}.jpg`, `Photo ${made}`)).trimEnd()}`);
if (made < count) {
  insertBefore('site.yaml', '\nbaseUrl:', `\nhomePhoto:\n  file: home-${made}.jpg\n  alt: { ru: Зал, en: Room, de: Raum }`);
  writeFileSync(join(dir, 'images', `home-${made}.jpg`), await photo(made++));
}
const banners = join(dir, 'banners.yaml');
let yaml = readFileSync(banners, 'utf8');
// More banners like the last one, so that every photo asked for is shown somewhere.
const last = yaml.slice(yaml.lastIndexOf('\n- id: ') + 1);
const slots = (yaml.match(/\n {2}cta:/g) ?? []).length;
for (let extra = 0; made + slots + extra < count; extra++) yaml += last.replace(/^- id: (.+)$/m, `- id: $1-${extra}`);
const bannerFiles: string[] = [];
yaml = yaml.replace(/\n {2}cta:/g, (m) => {
  if (made + bannerFiles.length >= count) return m;
  const name = `banner-${made + bannerFiles.length}.jpg`;
  bannerFiles.push(name);
  return `\n  image: { file: ${name}, decorative: true }${m}`;
});
writeFileSync(banners, yaml);
for (const name of bannerFiles) writeFileSync(join(dir, 'images', name), await photo(made++));
console.log(`${made} photos of 2400×1600 in ${dir}`);
