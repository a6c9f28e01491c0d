import { defineConfig } from 'vitest/config';

/**
 * The test layers (docs/architecture.md, "Tests"). A file lands in a layer by where it is, so a
 * new test file needs no change here:
 * - unit: `*.test.ts` beside the code in src/ and web/src/ — in process, no server, no build;
 * - api: test/api/ — `createApp()` over real stores in process (`app.request()`), every engine;
 * - e2e: the rest of test/ — real processes (the built CLI, `transcripts serve`, live recording,
 *   crash and kill tests, several instances over one store);
 * - browser: test/browser/ — Chromium against a real server.
 * Each layer names the run-wide work it needs (test/support/setup-*.ts); Vitest does that work
 * only when a layer has tests queued, once per run.
 */
const common = './test/support/global-setup.ts';
const corpus = './test/support/setup-corpus.ts';
const build = './test/support/setup-build.ts';
const ui = './test/support/setup-ui.ts';

export default defineConfig({
  test: {
    exclude: ['**/*.case.ts', 'node_modules/**', 'dist/**'],
    // Real SQLite, real files, child processes: keep the 2-core machine from thrashing.
    pool: 'forks',
    maxWorkers: 2,
    // Test files share their worker's modules rather than importing everything again per file:
    // no test changes global state it does not put back (test:quick 153 → 97 s of CPU).
    isolate: false,
    testTimeout: 60_000,
    // expect.poll gives up after 1 s by default: less than a page may take to load on a loaded
    // 2-core machine (three browser tests failed so in clean-tree runs). Passing polls end at once.
    expect: { poll: { timeout: 15_000 } },
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'web/src/**/*.test.ts'],
          // The corpus template is written by the SQLite writer thread, which runs from dist/.
          globalSetup: [common, build, corpus],
        },
      },
      {
        extends: true,
        test: { name: 'api', include: ['test/api/**/*.test.ts'], globalSetup: [common, build, corpus] },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: ['test/api/**', 'test/browser/**'],
          globalSetup: [common, build, corpus],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: [common, build, ui, corpus],
        },
      },
    ],
  },
});
