import { defineConfig } from 'vitest/config';
import suite from './vitest.config';

/**
 * `npm run test:fast`: the unit tests beside the code and the in-process layer, the loop a developer
 * runs after each change. No browser test, so no web build first (the whole suite's globalSetup).
 * Worker threads, and the files of a worker share its loaded modules (`isolate: false`): loading the
 * server's modules again for each of 70 files was two thirds of the time (88 s against 28 s on this
 * 2-core machine, same load). It holds because these tests keep no state between files: no module
 * mock, timers and globals restored after each test, stores and apps made per test; the whole suite
 * (`npm test`) still runs each file in a process of its own, so a test that leaned on another's
 * state would pass here and fail there.
 */
export default defineConfig({
  test: {
    ...suite.test,
    include: ['packages/*/src/**/*.test.ts', 'packages/server/test/in-process/**/*.test.ts'],
    globalSetup: [],
    pool: 'threads',
    isolate: false,
  },
});
