import { allocatePairs, type PairCounts } from './aggregate-cells';
import { sampleMultinomial } from './binomial';
import { evaluateBradleyTerry, fitBradleyTerry, refineWithFixedHessian } from './bradley-terry';
import { analyzeGraph, isStronglyConnected } from './components';
import { addGaugeProjector } from './gauge';
import { choleskyInPlace } from './linear-algebra';
import type { RandomSource } from './seeded-random';
import { fitStyleBradleyTerry } from './style-bradley-terry';
import type { StyleRows } from './style-features';

/** λθ used for a resample whose MLE does not exist (docs/ranking.md#bootstrap): the `bt_ridge` constant. */
export const BOOTSTRAP_FALLBACK_LAMBDA = 1e-3;

/** Options shared by both bootstraps. */
export interface BootstrapOptions {
  rounds: number;
  /** The variant's λθ; with 0, a round without a finite MLE is refitted with the ridge fallback. */
  lambdaTheta: number;
  /** Full-data θ: every round starts from it (warm start: 2–3 Newton steps instead of 6). */
  initialTheta: Float64Array;
  /** The gauge of the reported samples: per full-data component, the members whose mean is 0. */
  gaugeComponents: readonly number[][];
  gaugeReference: readonly number[][];
  /** The caller's seeded generator (no hidden randomness in the domain). */
  random: RandomSource;
}

/** Bootstrap replicates of θ (natural-log units), one row of `modelCount` values per round. */
export interface BootstrapSamples {
  readonly rounds: number;
  readonly modelCount: number;
  /** θ of each model in each round, in the requested gauge; NaN when the model drew no vote. */
  readonly theta: Float64Array;
  /** Rounds whose resample had no finite MLE and were fitted with the ridge fallback. */
  readonly roundsWithoutMle: number;
}

/**
 * Multinomial bootstrap of plain Bradley–Terry on aggregated counts (docs/ranking.md#bootstrap): drawing the
 * (pair, outcome) counts from Multinomial(N, n_cell / N) is the same as resampling the N votes
 * with replacement, at a cost independent of N. Each round is a warm-started Newton fit.
 */
export function bootstrapBradleyTerry(pairs: PairCounts, options: BootstrapOptions): BootstrapSamples {
  const m = pairs.modelCount;
  const cells = pairs.length * 3;
  const weights = new Float64Array(cells);
  let total = 0;
  for (let p = 0; p < pairs.length; p++) {
    weights[p * 3] = pairs.winsI[p]!;
    weights[p * 3 + 1] = pairs.ties[p]!;
    weights[p * 3 + 2] = pairs.winsJ[p]!;
    total += pairs.winsI[p]! + pairs.ties[p]! + pairs.winsJ[p]!;
  }
  const drawn = new Float64Array(cells);
  const resample = allocatePairs(m, pairs.length);
  resample.i.set(pairs.i);
  resample.j.set(pairs.j);
  const theta = new Float64Array(options.rounds * m);
  const singleComponent = analyzeGraph(pairs).components.length === 1;
  const factor = singleComponent ? fullDataFactor(pairs, options) : undefined;
  const allModels = [Array.from({ length: m }, (_, model) => model)];
  const roundTheta = new Float64Array(m);
  const everyone = new Uint8Array(m).fill(1);
  let roundsWithoutMle = 0;
  for (let round = 0; round < options.rounds; round++) {
    sampleMultinomial(total, weights, drawn, options.random);
    for (let p = 0; p < pairs.length; p++) {
      resample.winsI[p] = drawn[p * 3]!;
      resample.ties[p] = drawn[p * 3 + 1]!;
      resample.winsJ[p] = drawn[p * 3 + 2]!;
    }
    const target = theta.subarray(round * m, (round + 1) * m);
    // Usual case: everyone still compared both ways; a few fixed-Hessian steps suffice. A last
    // step below 1e-6 (2e-4 rating points) is far below any bootstrap spread.
    if (factor && isStronglyConnected(resample)) {
      roundTheta.set(options.initialTheta);
      const steps = refineWithFixedHessian(resample, factor, roundTheta, options.lambdaTheta, allModels, 1e-6);
      if (steps >= 0) {
        writeRound(target, roundTheta, everyone, options);
        continue;
      }
    }
    const graph = analyzeGraph(resample);
    let lambdaTheta = options.lambdaTheta;
    if (!graph.mleExists && lambdaTheta === 0) {
      lambdaTheta = BOOTSTRAP_FALLBACK_LAMBDA;
      roundsWithoutMle += 1;
    }
    const fit = fitBradleyTerry(resample, {
      lambdaTheta,
      components: graph.components,
      initialTheta: options.initialTheta,
      stepTolerance: 1e-8,
    });
    writeRound(target, fit.theta, presentModels(resample), options);
  }
  return { rounds: options.rounds, modelCount: m, theta, roundsWithoutMle };
}

/** Options of {@link bootstrapStyleBradleyTerry}. */
export interface StyleBootstrapOptions extends BootstrapOptions {
  lambdaBeta: number;
  initialBeta: Float64Array;
}

/** Style bootstrap replicates: θ as in {@link BootstrapSamples}, plus β per round. */
export interface StyleBootstrapSamples extends BootstrapSamples {
  /** One row of active-feature coefficients per round. */
  readonly beta: Float64Array;
}

/**
 * Vote-level bootstrap of the style-controlled fit: the features are continuous, so votes cannot
 * be aggregated; each round draws a replicate weight per vote (N uniform draws) and refits from
 * the full-data (θ, β). O(N) per round, so expect seconds per round on millions of votes.
 */
export function bootstrapStyleBradleyTerry(rows: StyleRows, options: StyleBootstrapOptions): StyleBootstrapSamples {
  const m = rows.modelCount;
  const k = rows.active.length;
  const n = rows.length;
  const weights = new Float64Array(n);
  const theta = new Float64Array(options.rounds * m);
  const beta = new Float64Array(options.rounds * k);
  let roundsWithoutMle = 0;
  for (let round = 0; round < options.rounds; round++) {
    weights.fill(0);
    for (let draw = 0; draw < n; draw++) weights[Math.floor(options.random.nextDouble() * n)]! += 1;
    const resample = pairCountsOf(rows, weights);
    const graph = analyzeGraph(resample);
    let lambdaTheta = options.lambdaTheta;
    if (!graph.mleExists && lambdaTheta === 0) {
      lambdaTheta = BOOTSTRAP_FALLBACK_LAMBDA;
      roundsWithoutMle += 1;
    }
    const fit = fitStyleBradleyTerry(
      { ...rows, weights },
      {
        lambdaTheta,
        lambdaBeta: options.lambdaBeta,
        components: graph.components,
        initialTheta: options.initialTheta,
        initialBeta: options.initialBeta,
      },
    );
    writeRound(theta.subarray(round * m, (round + 1) * m), fit.theta, presentModels(resample), options);
    beta.set(fit.beta, round * k);
  }
  return { rounds: options.rounds, modelCount: m, theta, beta, roundsWithoutMle };
}

/** Per-pair counts of weighted votes (only what the graph analysis needs). */
function pairCountsOf(rows: StyleRows, weights: Float64Array): PairCounts {
  const m = rows.modelCount;
  const mass = new Map<number, Float64Array>();
  for (let run = 0; run < rows.runA.length; run++) {
    const a = rows.runA[run]!;
    const b = rows.runB[run]!;
    const key = Math.min(a, b) * m + Math.max(a, b);
    let slot = mass.get(key);
    if (!slot) mass.set(key, (slot = new Float64Array(3)));
    for (let vote = rows.runStart[run]!; vote < rows.runStart[run + 1]!; vote++) {
      const weight = weights[vote]!;
      if (weight === 0) continue;
      const code = rows.outcome[vote]!;
      const lowWins = (code === 0) === a < b;
      slot[code >= 2 ? 1 : lowWins ? 0 : 2]! += weight;
    }
  }
  const keys = [...mass.keys()].sort((x, y) => x - y);
  const pairs = allocatePairs(m, keys.length);
  keys.forEach((key, index) => {
    const slot = mass.get(key)!;
    pairs.i[index] = Math.floor(key / m);
    pairs.j[index] = key % m;
    pairs.winsI[index] = slot[0]!;
    pairs.ties[index] = slot[1]!;
    pairs.winsJ[index] = slot[2]!;
  });
  return pairs;
}

/** Cholesky factor of H(θ̂) + λI + Q on the full data (one component). */
function fullDataFactor(pairs: PairCounts, options: BootstrapOptions): Float64Array {
  const m = pairs.modelCount;
  const hessian = new Float64Array(m * m);
  evaluateBradleyTerry(pairs, options.initialTheta, options.lambdaTheta, new Float64Array(m), hessian);
  addGaugeProjector(hessian, m, [Array.from({ length: m }, (_, model) => model)]);
  choleskyInPlace(hessian, m);
  return hessian;
}

function presentModels(pairs: PairCounts): Uint8Array {
  const present = new Uint8Array(pairs.modelCount);
  for (let p = 0; p < pairs.length; p++) {
    if (pairs.winsI[p]! + pairs.ties[p]! + pairs.winsJ[p]! > 0) {
      present[pairs.i[p]!] = 1;
      present[pairs.j[p]!] = 1;
    }
  }
  return present;
}

/** Writes one round in the requested gauge: absent models NaN, each component re-centred. */
function writeRound(
  target: Float64Array,
  theta: Float64Array,
  present: Uint8Array,
  options: Pick<BootstrapOptions, 'gaugeComponents' | 'gaugeReference'>,
): void {
  for (let model = 0; model < theta.length; model++) {
    target[model] = present[model] ? theta[model]! : Number.NaN;
  }
  options.gaugeComponents.forEach((members, index) => {
    const reference = (options.gaugeReference[index] ?? members).filter((model) => present[model]);
    const basis = reference.length > 0 ? reference : members.filter((model) => present[model]);
    if (basis.length === 0) return;
    let sum = 0;
    for (const model of basis) sum += target[model]!;
    const shift = sum / basis.length;
    for (const model of members) target[model]! -= shift;
  });
}

/** Per-model summaries of bootstrap replicates (NaN rounds skipped). */
export interface BootstrapSummary {
  /** Rounds in which the model drew at least one vote. */
  present: Int32Array;
  sd: Float64Array;
  median: Float64Array;
  /** Percentiles at (1 − level)/2 and (1 + level)/2, linear interpolation (numpy's default). */
  low: Float64Array;
  high: Float64Array;
}

/** Summarises each column of a rounds × columns replicate matrix. */
export function summarizeReplicates(values: Float64Array, rounds: number, columns: number, level = 0.95): BootstrapSummary {
  const summary: BootstrapSummary = {
    present: new Int32Array(columns),
    sd: new Float64Array(columns),
    median: new Float64Array(columns),
    low: new Float64Array(columns),
    high: new Float64Array(columns),
  };
  const column = new Float64Array(rounds);
  for (let c = 0; c < columns; c++) {
    let count = 0;
    for (let r = 0; r < rounds; r++) {
      const value = values[r * columns + c]!;
      if (!Number.isNaN(value)) column[count++] = value;
    }
    const sorted = column.subarray(0, count).sort();
    summary.present[c] = count;
    if (count === 0) {
      summary.sd[c] = summary.median[c] = summary.low[c] = summary.high[c] = Number.NaN;
      continue;
    }
    let mean = 0;
    for (const value of sorted) mean += value;
    mean /= count;
    let squares = 0;
    for (const value of sorted) squares += (value - mean) ** 2;
    summary.sd[c] = count > 1 ? Math.sqrt(squares / (count - 1)) : 0;
    summary.median[c] = quantile(sorted, 0.5);
    summary.low[c] = quantile(sorted, (1 - level) / 2);
    summary.high[c] = quantile(sorted, (1 + level) / 2);
  }
  return summary;
}

/** Quantile of sorted values with linear interpolation between order statistics. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.min(sorted.length - 1, lower + 1);
  const fraction = position - lower;
  return sorted[lower]! + fraction * (sorted[upper]! - sorted[lower]!);
}
