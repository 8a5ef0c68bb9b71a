/**
 * The entry of the build's worker thread (cli/build-worker.ts): the bundled .cjs next to this module
 * (see cli/bin.js, which builds it), or, run from the TypeScript sources, render-worker-tsx.cjs.
 */
export function cliEntry(name: 'render-worker'): { url: URL; execArgv: string[] } {
  return { url: new URL(import.meta.url.endsWith('.ts') ? `./${name}-tsx.cjs` : `./${name}.cjs`, import.meta.url), execArgv: [] };
}
