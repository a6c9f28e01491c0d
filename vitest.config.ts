import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    exclude: ['**/*.case.ts', 'node_modules/**', 'dist/**'],
    // Real SQLite, real files, child processes: keep the 2-core machine from thrashing.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/global-setup.ts'],
  },
});
