import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The CLI tests run the compiled bin: build it once per run.
    globalSetup: ['test/global-build.ts'],
  },
});
