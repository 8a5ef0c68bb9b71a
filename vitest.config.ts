import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // Browser and server tests start real processes; two cores are all there is.
    maxWorkers: 2,
    // The shipped site is built once per run, and only when a test file of the run reads it (tests/built-site.ts).
    reporters: ['default', './tests/built-site.ts'],
    // Each test file's temporary files in a folder of its own, named when the run ends if left behind.
    setupFiles: ['./tests/temp-folder.ts'],
  },
});
