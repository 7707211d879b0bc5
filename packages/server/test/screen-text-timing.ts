import { screenText } from '../src/domain/privacy';

/**
 * Run as a child process by screen-text-growth.test.ts: times the screening of each adversarial text
 * at two sizes in this process's own CPU time (process.cpuUsage), which other processes and threads on
 * a loaded machine cannot inflate the way they inflate wall time, and prints the best of each as JSON.
 */
export const ADVERSARIAL: Record<string, (units: number) => string> = {
  apostrophes: (units) => "a'".repeat(units),
  'spaced dots': (units) => 'a . '.repeat(units),
  'at signs': (units) => 'a@'.repeat(units),
  'digit pairs': (units) => '06 12 '.repeat(units),
  'plus signs': (units) => '+33 6 '.repeat(units),
};
export const SIZES = { small: 2_500, large: 10_000 } as const;

function cpuMsOf(text: string): number {
  const started = process.cpuUsage();
  screenText(text);
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

if (process.argv[2] === 'measure') {
  const result: Record<string, { small: number; large: number }> = {};
  for (const [name, make] of Object.entries(ADVERSARIAL)) {
    const small = make(SIZES.small);
    const large = make(SIZES.large);
    const best = { small: Number.POSITIVE_INFINITY, large: Number.POSITIVE_INFINITY };
    // Turns, so that the JIT warms both alike; the best of each, so that a collection in one round cannot make the ratio.
    for (let round = 0; round < 7; round += 1) {
      best.small = Math.min(best.small, cpuMsOf(small));
      best.large = Math.min(best.large, cpuMsOf(large));
    }
    result[name] = best;
  }
  process.stdout.write(JSON.stringify(result));
}
