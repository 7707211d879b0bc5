import { RankingError } from './ranking-error';

/*
 * Raking (iterative proportional fitting) of visitor weights to a population's margins, for the
 * board weighted to the population (docs/ranking.md#population-board). Each answering visitor gets
 * one weight; raking scales the weights, one question after the other, until the weighted share of
 * every answer option equals the operator's reference share (e.g. a census margin). Extreme
 * weights are then trimmed and the weights raked again ("trim and rake"): a handful of visitors
 * from a rare group must not carry the board, at the price of margins met less exactly.
 */

/** One question's reference margin: the population share of each answer option, summing to 1. */
export interface Margin {
  question: string;
  shares: readonly number[];
}

/** How raking stops and how far weights may go (docs/ranking.md#population-board). */
export interface RakingOptions {
  /** Converged when every option's weighted share is within this of its reference share. */
  tolerance: number;
  /** Passes over all questions, at most, per raking (one raking per trimming round). */
  maxIterations: number;
  /** Weights are kept within [mean / trimRatio, mean · trimRatio]. */
  trimRatio: number;
  /** Trim-and-rake rounds, at most. */
  trimRounds: number;
}

export const DEFAULT_RAKING: RakingOptions = { tolerance: 1e-6, maxIterations: 200, trimRatio: 5, trimRounds: 20 };

export interface RakingResult {
  /** Per respondent, mean 1. */
  weights: Float64Array;
  /** Passes over the questions, summed over the trimming rounds. */
  iterations: number;
  /** Largest |weighted share − reference share| over every option, after the last pass. */
  maxError: number;
  /** The margins were met within the tolerance. */
  converged: boolean;
  /** Trim-and-rake rounds that found a weight beyond the bounds. */
  trimRounds: number;
}

/**
 * Rakes respondents' weights to the margins. `answers[r][q]` is respondent r's option index on
 * question q (every respondent answered every question). An option with a positive reference
 * share and no respondent can never be met: refused, as a margin that does not sum to 1 is.
 */
export function rakeWeights(answers: readonly (readonly number[])[], margins: readonly Margin[], options = DEFAULT_RAKING): RakingResult {
  checkMargins(answers, margins);
  const weights = new Float64Array(answers.length).fill(1);
  let iterations = 0;
  let trimmed = 0;
  let fit = rake(weights, answers, margins, options);
  iterations += fit.iterations;
  for (let round = 0; round < options.trimRounds; round++) {
    if (!trim(weights, options.trimRatio)) break;
    trimmed++;
    fit = rake(weights, answers, margins, options);
    iterations += fit.iterations;
  }
  normaliseToMeanOne(weights);
  return { weights, iterations, maxError: fit.maxError, converged: fit.maxError <= options.tolerance, trimRounds: trimmed };
}

/** Passes over the questions until the margins are met or the passes run out. */
function rake(
  weights: Float64Array,
  answers: readonly (readonly number[])[],
  margins: readonly Margin[],
  options: RakingOptions,
): { iterations: number; maxError: number } {
  let maxError = marginError(weights, answers, margins);
  let iterations = 0;
  while (maxError > options.tolerance && iterations < options.maxIterations) {
    for (let question = 0; question < margins.length; question++) {
      const totals = optionTotals(weights, answers, question, margins[question]!.shares.length);
      const total = totals.reduce((sum, value) => sum + value, 0);
      const factors = margins[question]!.shares.map((share, option) => (totals[option]! > 0 ? (share * total) / totals[option]! : 0));
      for (let respondent = 0; respondent < weights.length; respondent++) weights[respondent]! *= factors[answers[respondent]![question]!]!;
    }
    iterations++;
    maxError = marginError(weights, answers, margins);
  }
  return { iterations, maxError };
}

function optionTotals(weights: Float64Array, answers: readonly (readonly number[])[], question: number, options: number): number[] {
  const totals = new Array<number>(options).fill(0);
  for (let respondent = 0; respondent < weights.length; respondent++) totals[answers[respondent]![question]!]! += weights[respondent]!;
  return totals;
}

/** Largest distance between an option's weighted share and its reference share. */
export function marginError(weights: Float64Array, answers: readonly (readonly number[])[], margins: readonly Margin[]): number {
  let worst = 0;
  margins.forEach((margin, question) => {
    const totals = optionTotals(weights, answers, question, margin.shares.length);
    const total = totals.reduce((sum, value) => sum + value, 0);
    totals.forEach((value, option) => (worst = Math.max(worst, Math.abs(value / total - margin.shares[option]!))));
  });
  return worst;
}

/**
 * Clamps positive weights to [mean / ratio, mean · ratio] (mean over the positive ones); whether any
 * was beyond (by more than rounding). A weight of 0 (an option whose reference share is 0) stays 0.
 */
function trim(weights: Float64Array, ratio: number): boolean {
  const positive = weights.filter((value) => value > 0);
  const mean = positive.reduce((sum, value) => sum + value, 0) / positive.length;
  const low = mean / ratio;
  const high = mean * ratio;
  let clamped = false;
  for (let index = 0; index < weights.length; index++) {
    const value = weights[index]!;
    if (value === 0) continue;
    if (value > high * (1 + 1e-9) || value < low * (1 - 1e-9)) clamped = true;
    weights[index] = Math.min(high, Math.max(low, value));
  }
  return clamped;
}

function normaliseToMeanOne(weights: Float64Array): void {
  const mean = weights.reduce((sum, value) => sum + value, 0) / weights.length;
  for (let index = 0; index < weights.length; index++) weights[index]! /= mean;
}

function checkMargins(answers: readonly (readonly number[])[], margins: readonly Margin[]): void {
  const invalid = (message: string) => new RankingError('invalid_option', `raking: ${message}`);
  if (answers.length === 0) throw invalid('no respondent');
  for (const [question, margin] of margins.entries()) {
    const sum = margin.shares.reduce((total, share) => total + share, 0);
    if (margin.shares.some((share) => !(share >= 0)) || Math.abs(sum - 1) > 1e-6)
      throw invalid(`the shares of ${margin.question} sum to ${sum}, not 1`);
    const seen = new Array<number>(margin.shares.length).fill(0);
    for (const answer of answers) {
      const option = answer[question];
      if (option === undefined || !Number.isInteger(option) || option < 0 || option >= margin.shares.length)
        throw invalid(`an answer to ${margin.question} is not one of its ${margin.shares.length} options`);
      seen[option]!++;
    }
    const empty = margin.shares.findIndex((share, option) => share > 0 && seen[option] === 0);
    if (empty >= 0) throw invalid(`option ${empty} of ${margin.question} has a reference share and no respondent`);
  }
}
