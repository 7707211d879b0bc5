/**
 * A closed interval `[min, max]`, EcoLogits' `RangeValue`. A single value is a range with
 * `min === max`. Every impact quantity is non-negative, so interval arithmetic is bound-wise.
 */
export interface ValueRange {
  min: number;
  max: number;
}

/** A plain number or a `{min, max}` range (parameter counts, PUE and WUE may be either). */
export type ValueOrRange = number | ValueRange;

/** True when the value is a `{min, max}` range rather than a number. */
export function isValueRange(value: ValueOrRange): value is ValueRange {
  return typeof value === 'object';
}

/** The value as a range (a number `x` becomes `[x, x]`). */
export function toRange(value: ValueOrRange): ValueRange {
  return isValueRange(value) ? { min: value.min, max: value.max } : { min: value, max: value };
}

/** Bound-wise sum `[a+c, b+d]`. */
export function addRanges(left: ValueRange, right: ValueRange): ValueRange {
  return { min: left.min + right.min, max: left.max + right.max };
}

/** Bound-wise product `[a·c, b·d]` (valid because every operand is non-negative). */
export function multiplyRanges(left: ValueRange, right: ValueRange): ValueRange {
  return { min: left.min * right.min, max: left.max * right.max };
}

/** Both bounds multiplied by a number, `[a·k, b·k]`. */
export function scaleRange(range: ValueRange, factor: number): ValueRange {
  return { min: range.min * factor, max: range.max * factor };
}

/** Midpoint `(min + max) / 2`, the single figure compar:IA and the EcoLogits README display. */
export function rangeMean(range: ValueRange): number {
  return (range.min + range.max) / 2;
}

/** The sum of many ranges, bound-wise; `[0, 0]` for none. */
export function sumRanges(ranges: Iterable<ValueRange>): ValueRange {
  let total: ValueRange = { min: 0, max: 0 };
  for (const range of ranges) total = addRanges(total, range);
  return total;
}

/** Applies a function to both bounds (for monotonic non-decreasing functions only). */
export function mapRange(value: ValueOrRange, transform: (bound: number) => number): ValueOrRange {
  if (!isValueRange(value)) return transform(value);
  return { min: transform(value.min), max: transform(value.max) };
}
