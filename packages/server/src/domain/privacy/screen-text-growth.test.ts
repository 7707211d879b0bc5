import { describe, expect, it } from 'vitest';
import { screenText } from './index';

/**
 * A prompt built to make the rules layer slow (a regex that restarts inside long runs, a check of
 * every finding against every other) would freeze the server that screens it. The cost must grow
 * with the length of the text, not with its square: four times the text may cost at most about
 * four times as much (quadratic would be sixteen). A ratio measured in the same run, as the
 * machine is shared: the two sizes take turns, five times, and each keeps its best time, so that a
 * pause of the machine during one round (it happened under load) cannot make the ratio.
 */
const ADVERSARIAL: Record<string, (units: number) => string> = {
  apostrophes: (units) => "a'".repeat(units),
  'spaced dots': (units) => 'a . '.repeat(units),
  'at signs': (units) => 'a@'.repeat(units),
  'digit pairs': (units) => '06 12 '.repeat(units),
  'plus signs': (units) => '+33 6 '.repeat(units),
};

function timeOf(text: string): number {
  const started = performance.now();
  screenText(text);
  return performance.now() - started;
}

/** The best time of each text, measured in turns. */
function bestInTurns(small: string, large: string): { small: number; large: number } {
  const best = { small: Number.POSITIVE_INFINITY, large: Number.POSITIVE_INFINITY };
  for (let round = 0; round < 5; round += 1) {
    best.small = Math.min(best.small, timeOf(small));
    best.large = Math.min(best.large, timeOf(large));
  }
  return best;
}

describe('screening time', () => {
  it.each(Object.entries(ADVERSARIAL))('grows linearly on %s', (_name, make) => {
    const { small, large } = bestInTurns(make(2_500), make(10_000));
    // 2 ms of slack: tiny timings are mostly noise.
    expect(large).toBeLessThan(9 * small + 2);
  });
});
