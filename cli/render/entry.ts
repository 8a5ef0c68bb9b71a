/**
 * The entry of one of the build's worker threads (cli/build-worker.ts makes pages,
 * cli/images/card-worker.ts draws share cards): the bundled .cjs next to this module (see
 * cli/bin.js, which builds it), or, run from the TypeScript sources, `<name>-tsx.cjs`.
 */
export function cliEntry(name: 'render-worker' | 'card-worker'): { url: URL; execArgv: string[] } {
  return { url: new URL(import.meta.url.endsWith('.ts') ? `./${name}-tsx.cjs` : `./${name}.cjs`, import.meta.url), execArgv: [] };
}
