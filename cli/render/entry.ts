/**
 * Another entry of the CLI, for a worker thread or a child process: the bundled .js beside the
 * CLI's bundle (see cli/bin.js, which builds each of them), or the .ts source run through tsx
 * (the build's worker, cli/build-worker.ts).
 */
export function cliEntry(name: 'render-worker'): { url: URL; execArgv: string[] } {
  return import.meta.url.endsWith('.ts')
    ? { url: new URL('../build-worker.ts', import.meta.url), execArgv: ['--import', 'tsx'] }
    : { url: new URL(`./${name}.js`, import.meta.url), execArgv: [] };
}
