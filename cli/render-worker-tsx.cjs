// The render worker's entry when the CLI runs from its TypeScript sources (cli/bin.js without its
// bundle, or under Vitest): Node 20 applies no module hooks, so not tsx's loader, in a worker thread
// (`--import tsx` in its execArgv registers them and the worker still cannot load a .ts file). tsx's
// CommonJS hooks work there: the worker registers them, and loads cli/build-worker.ts through them.
require('tsx/cjs/api').register();
require('./build-worker.ts');
