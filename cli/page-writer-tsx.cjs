// The page writer's entry when the CLI runs from its TypeScript sources (see render-worker-tsx.cjs).
require('tsx/cjs/api').register();
require('./write/page-writer.ts');
