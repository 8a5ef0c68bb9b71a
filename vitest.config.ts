import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Backstops for a hang, not measurements: on two busy cores a browser test that takes 20 s when quiet takes minutes.
    testTimeout: 180_000,
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
