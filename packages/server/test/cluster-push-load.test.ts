import { describe, expect, it } from 'vitest';
import { runClusterPushScenario } from '../../../scripts/load-cluster-push';
import { DIALECTS } from './test-db';

/*
 * `npm run load -- --scenario cluster-push`, small: 30 honest visitors (90 votes), then 50 cookies
 * pushing one prompt cluster for the weakest model. The scenario exits 1 when a rank on the live
 * board differs from the honest board's, or when the push counted naively would not move the target.
 */
const SMALL = ['--visitors', '30', '--duels-per-visitor', '3', '--cookies', '50', '--addresses', '10'];

describe.each(DIALECTS)('the cluster-push load scenario ($name)', (dialect) => {
  it('moves no rank on the live board with prompt de-duplication on (the default)', async () => {
    expect(await runClusterPushScenario(['--store', dialect.name, ...SMALL])).toBe(0);
  }, 240_000);
});

describe('the cluster-push load scenario without de-duplication', () => {
  it('fails: the push then moves the target on the live board', async () => {
    expect(await runClusterPushScenario(['--store', 'sqlite', ...SMALL, '--prompt-dedup', 'off'])).toBe(1);
  }, 240_000);
});
