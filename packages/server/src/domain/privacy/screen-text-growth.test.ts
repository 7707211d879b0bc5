import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ADVERSARIAL } from '../../../test/screen-text-timing';

/**
 * A prompt built to make the rules layer slow (a regex that restarts inside long runs, a check of
 * every finding against every other) would freeze the server that screens it. The cost must grow
 * with the length of the text, not with its square: four times the text may cost at most about
 * four times as much (quadratic would be sixteen; the bound is 9).
 *
 * Measured in CPU time, in a process of its own: wall time on a loaded machine is not a measure of
 * growth, since a short run fits in a scheduler's time slice and a long one does not (at a load of 10
 * on 2 cores, a linear cost measured 10.8 times for four times the text). The child runs nothing else,
 * so its CPU time is the screening's.
 */
const timing = fileURLToPath(new URL('../../../test/screen-text-timing.ts', import.meta.url));

describe('screening time', () => {
  it('grows linearly on every adversarial text', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', timing, 'measure'], { encoding: 'utf8' });
    const measured = JSON.parse(stdout) as Record<string, { small: number; large: number }>;
    expect(Object.keys(measured).sort()).toEqual(Object.keys(ADVERSARIAL).sort());
    // 1 ms of slack: CPU time is counted in ticks of the kernel's clock.
    const tooSlow = Object.entries(measured).filter(([, { small, large }]) => large >= 9 * small + 1);
    expect(tooSlow).toEqual([]);
  }, 60_000);
});
