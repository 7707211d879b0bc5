/**
 * Axes people can read: round tick values (1, 2 or 5 times a power of ten) that cover the data, and
 * point labels moved apart so that none covers another.
 */

/** A step of 1, 2 or 5 × 10^k near `span / count`. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/** About `count` round ticks from below `min` to above `max`; the domain is the first and last tick. */
export function niceTicks(min: number, max: number, count = 4): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (max <= min) max = min + 1;
  const step = niceStep(max - min, count);
  const first = Math.floor(min / step) * step;
  const last = Math.ceil(max / step) * step;
  const ticks: number[] = [];
  // Rounded to the step's decimals, so that 0.1 + 0.2 shows as 0.3.
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  for (let value = first; value <= last + step / 2; value += step) ticks.push(Number(value.toFixed(decimals)));
  return ticks;
}

/**
 * Vertical positions for labels wanted at `wanted` (one each), at least `gap` apart and within
 * [top, bottom], each as close to its wish as the others allow. Keeps the input order of the result.
 */
export function spreadLabels(wanted: readonly number[], gap: number, top: number, bottom: number): number[] {
  const order = wanted.map((y, index) => ({ y, index })).sort((a, b) => a.y - b.y);
  const placed = order.map(({ y }) => Math.min(Math.max(y, top), bottom));
  // Push down what overlaps the label above it, then pull everything back up from the bottom edge.
  for (let i = 1; i < placed.length; i++) placed[i] = Math.max(placed[i]!, placed[i - 1]! + gap);
  if (placed.length > 0 && placed.at(-1)! > bottom) {
    placed[placed.length - 1] = bottom;
    for (let i = placed.length - 2; i >= 0; i--) placed[i] = Math.min(placed[i]!, placed[i + 1]! - gap);
  }
  const result = new Array<number>(wanted.length);
  order.forEach(({ index }, position) => (result[index] = placed[position]!));
  return result;
}
