import { cpSync, existsSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { InlineConfig } from 'vite';
import type { PageModel } from '../../templates/model.ts';
import { type BuildPages, hasForm, type PrerenderUrls } from '../../templates/vike/pages.ts';
import { cacheDir, fromRoot } from '../paths.ts';

// Vike finds the +files (templates/vike/) by scanning its root, which must be the project folder.
const VIKE_ROOT = fromRoot();

/**
 * Prerenders every page with Vike (client bundle for the form, then one HTML file per page)
 * into `siteDir`. Uses Vike's JS API: `vite build` through npm's .bin link skips prerendering.
 * The pages go in through Vike's public API only: their URLs compiled into the server build
 * (Vite's `define`: Vike asks for them in a hook that gets no page context), the models and the
 * progress callback in every page context (`prerender({ pageContextInit })`).
 */
export async function prerenderWithVike(pages: PageModel[], siteDir: string, onPage: (url: string) => void, head: string): Promise<void> {
  // Inside the project, so that Vike's server bundle resolves react and vike from node_modules.
  const work = join(cacheDir(), `vike-${process.pid}`);
  const urls: PrerenderUrls = { form: pages.filter(hasForm).map((p) => p.url), static: pages.filter((p) => !hasForm(p)).map((p) => p.url) };
  const pageContextInit = { buildPages: new Map(pages.map((p) => [p.url, p])), onPageRendered: onPage, head } satisfies BuildPages;
  const [{ build, prerender }, { default: vike }, { default: react }] = await Promise.all([
    import('vike/api'),
    import('vike/plugin'),
    import('@vitejs/plugin-react'),
  ]);
  // Vike lists every file it writes on the console; keep that for when something fails.
  const logged: string[] = [];
  const { log, info } = console;
  console.log = (...args: unknown[]) => logged.push(args.join(' '));
  console.info = console.log;
  // Vike still reads the working directory despite `root`: it tells an absolute outDir by
  // comparing its first segment with process.cwd()'s (vike/dist/node/vite/shared/getOutDirs.js),
  // and stops with "You stumbled upon a Vike bug" when they differ. So Vike runs in the project
  // folder, whatever folder `content build` was started in; every path the build holds is absolute.
  const cwd = process.cwd();
  process.chdir(VIKE_ROOT);
  try {
    // A fresh config (and plugins) for each of Vike's two calls.
    const viteConfig = (): InlineConfig => ({
      configFile: false,
      root: VIKE_ROOT,
      logLevel: 'error',
      clearScreen: false,
      plugins: [react(), vike()],
      define: { __STUDIO_PRERENDER_URLS__: JSON.stringify(urls) },
      // Vike joins outDir to the root itself: give it a relative path.
      build: { outDir: relative(VIKE_ROOT, work), emptyOutDir: true, reportCompressedSize: false },
    });
    await build({ viteConfig: viteConfig() });
    await prerender({ viteConfig: viteConfig(), pageContextInit });
    const client = join(work, 'client');
    if (!existsSync(join(client, 'index.html'))) throw new Error('Vike finished without prerendering index.html');
    cpSync(client, siteDir, { recursive: true });
    // Not part of the site: Vike's asset list and Vite's manifest.
    for (const f of ['assets.json', '.vite']) rmSync(join(siteDir, f), { recursive: true, force: true });
  } catch (error) {
    (error as Error).message += `\n\nVike's output:\n${logged.slice(-40).join('\n')}`;
    throw error;
  } finally {
    process.chdir(cwd);
    console.log = log;
    console.info = info;
    rmSync(work, { recursive: true, force: true });
  }
}
