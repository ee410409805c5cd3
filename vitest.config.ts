import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn the built binary; a 2-core machine needs room, but no test asserts wall-clock.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
