import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // Browser and server tests start real processes; two cores are all there is.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
