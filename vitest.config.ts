import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'e2e/**/*.test.ts'],
    // Builds packages/web once (when stale) for the browser tests in e2e/.
    globalSetup: ['./e2e/global-setup.ts'],
    // Every test file: connections beyond the loopback addresses throw (scripts/network-guard.ts).
    setupFiles: ['./scripts/network-guard.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // A poll returns as soon as its assertion holds; the default second is short for a real browser
    // and server sharing a 2-core runner with the rest of the suite (a leaderboard filter once took longer).
    expect: { poll: { timeout: 5_000 } },
    reporters: ['default', './scripts/summary-reporter.ts'],
  },
});
