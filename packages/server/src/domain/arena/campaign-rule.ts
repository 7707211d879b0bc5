/**
 * The campaign rule (docs/arena.md#vote-integrity): an address group whose decisive votes on duels
 * with one model pick that model far more often than the board's own ratings predict for those
 * pairs. The per-vote rules miss a patient script that waits, paces itself and votes against its
 * model now and then; its wins for the model still pile up against the prediction.
 *
 * One-sided test of the number of wins X of the model over the group's n decisive votes on it,
 * each won with the probability p_i of the Bradley–Terry prediction (a Poisson-binomial law),
 * by its normal approximation with a continuity correction: flagged when P(X ≥ x) < `alpha`.
 * Pure: the ratings are passed in.
 */

/** What the rule reads of the integrity columns (vote-integrity.ts's IntegrityColumns, which imports this file). */
export interface CampaignColumns {
  length: number;
  arena: Uint8Array;
  client: Int32Array;
  /** 0: A won, 1: B won (CHOICE_CODE); ties and both-bad are not decisive. */
  choice: Uint8Array;
  modelA: Int32Array | Uint16Array;
  modelB: Int32Array | Uint16Array;
}

const CHOICE_CODE = { a: 0, b: 1 } as const;

export interface CampaignRule {
  /** Fewer decisive votes on a model than this are not judged: the normal approximation needs some. */
  minVotes: number;
  /** One-sided false-positive rate of the test, per address group and model. */
  alpha: number;
}

export const DEFAULT_CAMPAIGN_RULE: CampaignRule = { minVotes: 15, alpha: 1e-4 };

/** Points of the rating scale per natural-log unit of strength (1000 + 400/ln 10 · θ). */
const POINTS = 400 / Math.LN10;

/**
 * The rows of the votes, by address group, that picked a model the group favours against the
 * prediction (see above). `ratings[model]`: the board's rating of each model index of the columns,
 * NaN when the board does not rate it (those votes are not judged).
 */
export function campaignRows(votes: CampaignColumns, ratings: Float64Array, rule: CampaignRule): number[] {
  const byClientModel = new Map<number, number[]>();
  for (let row = 0; row < votes.length; row++) {
    const client = votes.client[row]!;
    const choice = votes.choice[row]!;
    if (votes.arena[row] !== 1 || client < 0 || (choice !== CHOICE_CODE.a && choice !== CHOICE_CODE.b)) continue;
    if (Number.isNaN(ratings[votes.modelA[row]!]!) || Number.isNaN(ratings[votes.modelB[row]!]!)) continue;
    for (const model of [votes.modelA[row]!, votes.modelB[row]!]) {
      const key = client * 65_536 + model;
      const rows = byClientModel.get(key);
      if (rows) rows.push(row);
      else byClientModel.set(key, [row]);
    }
  }
  const flagged: number[] = [];
  for (const [key, rows] of byClientModel) {
    if (rows.length < rule.minVotes) continue;
    const model = key % 65_536;
    if (upperTail(votes, rows, model, ratings) < rule.alpha) for (const row of rows) if (wonBy(votes, row, model)) flagged.push(row);
  }
  return flagged;
}

function wonBy(votes: CampaignColumns, row: number, model: number): boolean {
  return votes.choice[row] === CHOICE_CODE.a ? votes.modelA[row] === model : votes.modelB[row] === model;
}

/** P(X ≥ x) for the model's wins over these rows, by the normal approximation with continuity correction. */
function upperTail(votes: CampaignColumns, rows: readonly number[], model: number, ratings: Float64Array): number {
  let wins = 0;
  let mean = 0;
  let variance = 0;
  for (const row of rows) {
    const other = votes.modelA[row] === model ? votes.modelB[row]! : votes.modelA[row]!;
    const p = 1 / (1 + Math.exp((ratings[other]! - ratings[model]!) / POINTS));
    mean += p;
    variance += p * (1 - p);
    if (wonBy(votes, row, model)) wins++;
  }
  if (variance === 0) return wins > mean ? 0 : 1;
  return 1 - standardNormalCdf((wins - 0.5 - mean) / Math.sqrt(variance));
}

/** Φ(z), by the complementary error function (Numerical Recipes' erfc, relative error below 1.2e-7). */
export function standardNormalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}
