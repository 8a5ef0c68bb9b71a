import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromRoot } from '../paths.ts';
import { REDIRECTS_FILE } from '../render/redirects.ts';
import { type EnquiryManifest, writeManifest } from '../serve/manifest.ts';
import { writeHostFiles } from './host-files.ts';

/** The client bundle's files (`assets/…`), copied into the site from where the compiler installed them. */
export function installAssets(dir: string, assetsDir: string): void {
  cpSync(join(assetsDir, 'assets'), join(dir, 'assets'), { recursive: true });
}

/** Everything of a site besides its pages: the files served as they are (the favicon), the sitemap, the redirects, robots.txt, the server's manifest, the host's files. */
export function writeSiteFiles(dir: string, made: { sitemap: string; robots: string; redirects: string; manifest: EnquiryManifest }): void {
  cpSync(fromRoot('templates/public'), dir, { recursive: true });
  writeFileSync(join(dir, 'sitemap.xml'), made.sitemap);
  writeFileSync(join(dir, REDIRECTS_FILE), made.redirects);
  writeFileSync(join(dir, 'robots.txt'), made.robots);
  writeManifest(dir, made.manifest);
  writeHostFiles(dir);
}
