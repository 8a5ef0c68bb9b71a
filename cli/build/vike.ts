import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { PageModel } from '../../templates/model.ts';
import { setBuildPages } from '../../templates/vike/pages.ts';
import { fromRoot } from '../paths.ts';

const VIKE_ROOT = fromRoot('templates', 'vike');
const PROGRESS = Symbol.for('studio-site.progress');

/**
 * Prerenders every page with Vike (client bundle for the form, then one HTML file per page)
 * into `siteDir`. Uses Vike's JS API: `vite build` through npm's .bin link skips prerendering.
 */
export async function prerenderWithVike(pages: PageModel[], siteDir: string, onPage: (url: string) => void): Promise<void> {
  const work = `${siteDir}.vike`;
  setBuildPages(pages);
  (globalThis as Record<symbol, unknown>)[PROGRESS] = onPage;
  const [{ build }, { default: vike }, { default: react }] = await Promise.all([import('vike/api'), import('vike/plugin'), import('@vitejs/plugin-react')]);
  try {
    await build({
      viteConfig: {
        configFile: false,
        root: VIKE_ROOT,
        logLevel: 'error',
        clearScreen: false,
        plugins: [react(), vike()],
        build: { outDir: work, emptyOutDir: true, reportCompressedSize: false },
      },
    });
    const client = join(work, 'client');
    if (!existsSync(join(client, 'index.html'))) throw new Error('Vike finished without prerendering index.html');
    cpSync(client, siteDir, { recursive: true });
    // Vike's client router entry is built even when no page uses it; nothing references it.
    for (const f of ['assets.json']) rmSync(join(siteDir, f), { force: true });
  } finally {
    rmSync(work, { recursive: true, force: true });
    delete (globalThis as Record<symbol, unknown>)[PROGRESS];
  }
}
