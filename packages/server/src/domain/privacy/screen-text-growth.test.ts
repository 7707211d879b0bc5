import { describe, expect, it } from 'vitest';
import { screenText } from './index';

/**
 * A prompt built to make the rules layer slow (a regex that restarts inside long runs, a check of
 * every finding against every other) would freeze the server that screens it. The cost must grow
 * with the length of the text, not with its square: four times the text may cost at most about
 * four times as much (quadratic would be sixteen). A ratio measured in the same run, as the
 * machine is shared; each side is the best of three.
 */
const ADVERSARIAL: Record<string, (units: number) => string> = {
  apostrophes: (units) => "a'".repeat(units),
  'spaced dots': (units) => 'a . '.repeat(units),
  'at signs': (units) => 'a@'.repeat(units),
  'digit pairs': (units) => '06 12 '.repeat(units),
  'plus signs': (units) => '+33 6 '.repeat(units),
};

function bestOfThree(text: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now();
    screenText(text);
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

describe('screening time', () => {
  it.each(Object.entries(ADVERSARIAL))('grows linearly on %s', (_name, make) => {
    const small = bestOfThree(make(2_500));
    const large = bestOfThree(make(10_000));
    // 2 ms of slack: tiny timings are mostly noise.
    expect(large).toBeLessThan(9 * small + 2);
  });
});
