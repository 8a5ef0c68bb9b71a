/**
 * Another entry of the CLI next to this module, for a worker thread or a child process: the
 * bundled .js (see cli/bin.js, which builds each of them), or the .ts source run through tsx.
 */
export function cliEntry(name: 'render-worker'): { url: URL; execArgv: string[] } {
  return import.meta.url.endsWith('.ts')
    ? { url: new URL(`./${name}.ts`, import.meta.url), execArgv: ['--import', 'tsx'] }
    : { url: new URL(`./${name}.js`, import.meta.url), execArgv: [] };
}
