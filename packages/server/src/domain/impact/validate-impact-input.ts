import { ImpactError, type ImpactErrorCode } from './impact-error';
import type { ElectricityMixFactors } from './impact-types';
import { isValueRange, type ValueOrRange, type ValueRange } from './value-range';

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * Checks a number-or-range: each bound finite and at least `minimum` (strictly above it when
 * `exclusive`), and min ≤ max. Returns it as a range.
 * @throws ImpactError with `code` on any violation.
 */
export function checkValueOrRange(
  value: ValueOrRange | null | undefined,
  what: string,
  code: ImpactErrorCode,
  minimum: number,
  exclusive = false,
): ValueRange {
  // Runs for every answer of every reveal: no closure or array per call.
  const range = value !== null && value !== undefined && isValueRange(value);
  const min: unknown = range ? value.min : value;
  const max: unknown = range ? value.max : value;
  if (!isBound(min, minimum, exclusive) || !isBound(max, minimum, exclusive)) {
    const limit = exclusive ? `greater than ${minimum}` : `at least ${minimum}`;
    throw new ImpactError(code, `${what} must be a finite number ${limit}, got ${describe(value)}`);
  }
  if (min > max) throw new ImpactError(code, `${what} range has min ${min} above max ${max}`);
  return { min, max };
}

function isBound(bound: unknown, minimum: number, exclusive: boolean): bound is number {
  return isFiniteNumber(bound) && (exclusive ? bound > minimum : bound >= minimum);
}

/**
 * Checks an output-token count: a finite number ≥ 0.
 * @throws ImpactError `invalid_tokens`.
 */
export function checkOutputTokens(tokens: unknown): number {
  if (!isFiniteNumber(tokens) || tokens < 0) {
    throw new ImpactError('invalid_tokens', `output tokens must be a finite number ≥ 0, got ${describe(tokens)}`);
  }
  return tokens;
}

/**
 * Normalises a measured request latency: `null`/`undefined` (not measured) become `Infinity`.
 * @throws ImpactError `invalid_latency` for a negative number or `NaN`.
 */
export function checkRequestLatency(latency: number | null | undefined): number {
  if (latency === null || latency === undefined) return Infinity;
  if (typeof latency !== 'number' || Number.isNaN(latency) || latency < 0) {
    throw new ImpactError('invalid_latency', `request latency must be a number of seconds ≥ 0, got ${describe(latency)}`);
  }
  return latency;
}

/**
 * Checks mix factors: finite and ≥ 0; the water factor is required when `needsWater`.
 * @throws ImpactError `invalid_electricity_mix`.
 */
export function checkElectricityMix(mix: ElectricityMixFactors, needsWater: boolean): void {
  const factors: unknown[] = [mix.gwp, mix.adpe, mix.pe, ...(needsWater ? [mix.wue] : [])];
  if (!factors.every((factor) => isFiniteNumber(factor) && factor >= 0)) {
    const expected = needsWater ? 'gwp, adpe, pe and wue' : 'gwp, adpe and pe';
    throw new ImpactError('invalid_electricity_mix', `electricity mix needs finite ${expected} factors ≥ 0`);
  }
}

function describe(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}
