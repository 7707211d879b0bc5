import type { Reporter, TestModule } from 'vitest/node';

/**
 * Turns vitest's own summary into the plain closing line CI reads: `N passed, N failed, N skipped`.
 * A file that fails to load counts as one failure, so a broken import can never look green.
 */
export default class SummaryReporter implements Reporter {
  private started = performance.now();

  onInit(): void {
    this.started = performance.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const testModule of testModules) {
      if (testModule.state() === 'failed' && [...testModule.children.allTests()].length === 0) failed += 1;
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
    }
    const seconds = (performance.now() - this.started) / 1000;
    // The time on its own line: the closing line's shape is what CI reads.
    process.stdout.write(`\nran in ${seconds.toFixed(1)} s\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
