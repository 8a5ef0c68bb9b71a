// The card worker's entry when the CLI runs from its TypeScript sources (see cli/render-worker-tsx.cjs).
// The card worker also imports templates (ShareCard.tsx) with import(): tsx's ES module hooks are
// registered in this thread too, or that import fails on the .tsx extension.
require('tsx/cjs/api').register();
require('tsx/esm/api').register();
require('./card-worker.ts');
