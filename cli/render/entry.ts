/**
 * The entry of a render worker thread (render-worker.ts), next to this module: the bundled .cjs (see
 * cli/bin.js, which builds it), or, run from the TypeScript sources, render-worker-tsx.cjs.
 */
export function cliEntry(name: 'render-worker'): { url: URL; execArgv: string[] } {
  return { url: new URL(import.meta.url.endsWith('.ts') ? `./${name}-tsx.cjs` : `./${name}.cjs`, import.meta.url), execArgv: [] };
}
