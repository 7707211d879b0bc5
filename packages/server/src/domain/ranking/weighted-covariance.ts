import type { PairCounts } from './aggregate-cells';
import { evaluateBradleyTerry } from './bradley-terry';
import { multiply } from './linear-algebra';
import { sandwichFromParts, standardErrorsInPoints, type StrengthCovariance } from './standard-errors';
import type { StyleRows } from './style-features';
import type { VoteTable } from './vote-table';
import { clusteredMeat, plainScore, styleScore, type VoteWeighting } from './weighting';

/** A weighted or clustered fit's covariances, and the SEs it would have with each vote its own cluster. */
export interface WeightedCovariance {
  covariance: StrengthCovariance;
  /** Sandwich SEs in points with the same weights but no clusters: the clusters' share of the design effect. */
  seIndependent: Float64Array;
}

/**
 * Covariances of a plain fit on weighted votes: the Hessian of the weighted objective (from the
 * weighted pair sums) and a sandwich whose meat sums scores w(p − y) per cluster.
 */
export function plainWeightedCovariance(
  table: VoteTable,
  pairs: PairCounts,
  theta: Float64Array,
  lambdaTheta: number,
  components: readonly number[][],
  weighting: VoteWeighting,
): WeightedCovariance {
  const m = table.models.length;
  const hessian = new Float64Array(m * m);
  evaluateBradleyTerry(pairs, theta, lambdaTheta, new Float64Array(m), hessian);
  const score = plainScore(table, theta, weighting.weight);
  const covariance = sandwichFromParts(hessian, clusteredMeat(table.length, m, 2, weighting.cluster, score), m, components);
  if (weighting.cluster === undefined) return { covariance, seIndependent: standardErrorsInPoints(covariance.sandwich, m) };
  const independent = multiply(multiply(covariance.hessian, clusteredMeat(table.length, m, 2, undefined, score), m), covariance.hessian, m);
  return { covariance, seIndependent: standardErrorsInPoints(independent, m) };
}

/**
 * The sandwich of a style fit on weighted votes, from its inverse Hessian A (which the weighted
 * fit already gives): A·G·A with G summed per cluster over the scores in (θ, β).
 */
export function styleWeightedCovariance(
  rows: StyleRows,
  fit: { theta: Float64Array; beta: Float64Array; covariance: StrengthCovariance },
  weighting: VoteWeighting,
): WeightedCovariance {
  const size = fit.covariance.size;
  const inverse = fit.covariance.hessian;
  const score = styleScore(rows, fit.theta, fit.beta, weighting.weight);
  const width = 2 + rows.active.length;
  // The style rows are sorted by pair: their clusters are read through each vote's table row.
  const cluster = weighting.cluster === undefined ? undefined : Int32Array.from(rows.order, (row) => weighting.cluster![row]!);
  const sandwichOf = (clusters: Int32Array | undefined) =>
    multiply(multiply(inverse, clusteredMeat(rows.length, size, width, clusters, score), size), inverse, size);
  const sandwich = sandwichOf(cluster);
  const covariance = { size, hessian: inverse, sandwich };
  const independent = cluster === undefined ? sandwich : sandwichOf(undefined);
  return { covariance, seIndependent: standardErrorsInPoints(independent, size, rows.modelCount) };
}
