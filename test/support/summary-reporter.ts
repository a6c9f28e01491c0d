/**
 * Prints the closing line CI reads: `N passed, N failed, N skipped`. Vitest's own summary is
 * formatted for people; this one line is for machines.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const mod of testModules) {
      let failedHere = 0;
      for (const test of mod.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // A file that failed with no test failing still counts: it failed to load, or a hook
      // failed (a failing beforeAll leaves every test of the file skipped, not failed).
      failed += mod.state() === 'failed' ? Math.max(failedHere, 1) : failedHere;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
