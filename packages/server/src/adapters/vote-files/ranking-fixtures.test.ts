import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  bootstrapBradleyTerry,
  computeLeaderboard,
  createSeededRandom,
  evaluateBradleyTerry,
  fitVariant,
  missingMleReason,
  OUTCOME_CODE,
  prepareRanking,
  RankingError,
  STYLE_FEATURES,
  summarizeReplicates,
  type RankingData,
  type RankingVariant,
  type VariantFit,
} from '../../domain/ranking';
import { RANKING_FIXTURES } from '../../../test/reference-fixtures';
import { readVoteFile } from './read-vote-file';

/** The reference oracle's fixtures (docs/ranking.md#oracle-fixtures), copied into test/fixtures/reference/ranking. */
const FIXTURES = RANKING_FIXTURES;
const stems = readdirSync(FIXTURES)
  .filter((name) => name.endsWith('.expected.json'))
  .map((name) => name.replace('.expected.json', ''))
  .sort();

type Named<T> = Record<string, T>;
interface ExpectedVariant {
  l2_theta: number;
  ratings: Named<number>;
  ratings_core_centered?: Named<number>;
  se_hessian: Named<number>;
  se_sandwich: Named<number>;
  rank_ci_sandwich95?: Named<[number, number]>;
  objective_value: number;
  max_abs_grad: number;
  cov_hessian_points2?: number[][];
  cov_sandwich_points2?: number[][];
  probe?: { theta: Named<number>; objective: number; gradient: Named<number> };
  beta?: Named<number>;
  beta_points_per_sd?: Named<number>;
  beta_se_hessian?: Named<number>;
  beta_se_sandwich?: Named<number>;
}
interface Expected {
  n_votes_raw: number;
  n_votes_used: number;
  n_selfplay_dropped: number;
  n_models: number;
  model_order: string[];
  outcomes: { model_a: number; model_b: number; tie_or_bothbad: number };
  n_cells: number;
  per_model: Named<{ votes: number; wins: number; losses: number; ties: number }>;
  components: string[][];
  strong_components: string[][];
  mle_exists: boolean;
  provisional_models: string[];
  style_features?: { mean_d: number[]; std_d: number[] };
  anchor_example?: { anchor_model: string; anchor_rating: number; ratings: Named<number> };
  variants: Record<string, ExpectedVariant | { ratings: Named<number> } | null>;
}

const SCALE = 400 / Math.LN10;

function closeRelative(actual: number, expected: number, relative: number, absolute: number): boolean {
  return Math.abs(actual - expected) <= Math.max(absolute, relative * Math.abs(expected));
}

function expectClose(actual: number, expected: number, relative: number, absolute: number, what: string): void {
  if (!closeRelative(actual, expected, relative, absolute)) {
    expect.fail(`${what}: got ${actual}, expected ${expected} (rel ${relative}, abs ${absolute})`);
  }
}

/** Ratings: 0.01 points for core models, 0.05 for provisional ones in bt_ridge (docs/ranking.md#tolerances). */
function checkRatings(fit: VariantFit, expected: Named<number>, actual: Float64Array, provisional: string[], what: string): void {
  fit.models.forEach((model, index) => {
    const tolerance = provisional.includes(model) ? 0.05 : 0.01;
    expectClose(actual[index]!, expected[model]!, 0, tolerance, `${what} ${model}`);
  });
}

/** Rank bounds exact, except where a CI bound is within 0.01 points of another model's. */
function checkRanks(fit: VariantFit, expected: Named<[number, number]>): void {
  const low = fit.ratings.map((rating, index) => rating - 1.959964 * fit.seSandwich[index]!);
  const high = fit.ratings.map((rating, index) => rating + 1.959964 * fit.seSandwich[index]!);
  fit.models.forEach((model, index) => {
    const [best, worst] = expected[model]!;
    const nearBoundary = fit.models.some(
      (_, other) => other !== index && (Math.abs(low[other]! - high[index]!) <= 0.01 || Math.abs(high[other]! - low[index]!) <= 0.01),
    );
    if (nearBoundary) return;
    expect([fit.rankBoundsSandwich95.best[index], fit.rankBoundsSandwich95.worst[index]], `rank ${model}`).toEqual([best, worst]);
  });
}

function checkCovariance(actual: Float64Array, size: number, expected: number[][], what: string): void {
  expected.forEach((row, i) =>
    row.forEach((value, j) => {
      expectClose(SCALE * SCALE * actual[i * size + j]!, value, 1e-4, 1e-3, `${what}[${i}][${j}]`);
    }),
  );
}

function checkVariant(data: RankingData, name: string, expected: ExpectedVariant, file: Expected): void {
  const fit = fitVariant(data, name as RankingVariant);
  expect(fit.converged).toBe(true);
  checkRatings(fit, expected.ratings, fit.ratings, file.provisional_models, `${name} rating`);
  if (expected.ratings_core_centered) {
    checkRatings(fit, expected.ratings_core_centered, fit.ratingsCoreCentered, file.provisional_models, `${name} core-centred`);
  }
  fit.models.forEach((model, index) => {
    expectClose(fit.seHessian[index]!, expected.se_hessian[model]!, 1e-4, 0.001, `${name} se_hessian ${model}`);
    expectClose(fit.seSandwich[index]!, expected.se_sandwich[model]!, 1e-4, 0.001, `${name} se_sandwich ${model}`);
  });
  expectClose(fit.objective, expected.objective_value, 1e-9, 1e-9, `${name} objective`);
  if (expected.rank_ci_sandwich95) checkRanks(fit, expected.rank_ci_sandwich95);
  if (expected.cov_hessian_points2)
    checkCovariance(fit.covariance.hessian, fit.covariance.size, expected.cov_hessian_points2, `${name} cov_hessian`);
  if (expected.cov_sandwich_points2)
    checkCovariance(fit.covariance.sandwich, fit.covariance.size, expected.cov_sandwich_points2, `${name} cov_sandwich`);
  if (expected.probe) {
    const theta = Float64Array.from(fit.models, (model) => expected.probe!.theta[model]!);
    const gradient = new Float64Array(fit.models.length);
    const objective = evaluateBradleyTerry(data.pairs, theta, expected.l2_theta, gradient);
    expectClose(objective, expected.probe.objective, 1e-9, 1e-6, `${name} probe objective`);
    fit.models.forEach((model, index) => {
      expectClose(gradient[index]!, expected.probe!.gradient[model]!, 1e-9, 1e-6, `${name} probe gradient ${model}`);
    });
  }
  if (expected.beta) {
    for (const feature of STYLE_FEATURES) {
      expectClose(fit.style!.beta[feature], expected.beta[feature]!, 0, 1e-5, `${name} beta ${feature}`);
      expectClose(fit.style!.betaPointsPerSd[feature], expected.beta_points_per_sd![feature]!, 0, 0.01, `${name} beta points ${feature}`);
      expectClose(fit.style!.betaSeHessian[feature], expected.beta_se_hessian![feature]!, 1e-4, 1e-6, `${name} beta se_hessian ${feature}`);
      expectClose(
        fit.style!.betaSeSandwich[feature],
        expected.beta_se_sandwich![feature]!,
        1e-4,
        1e-6,
        `${name} beta se_sandwich ${feature}`,
      );
    }
  }
}

describe.each(stems)('ranking fixture %s', (stem) => {
  const expected = JSON.parse(readFileSync(`${FIXTURES}${stem}.expected.json`, 'utf8')) as Expected;
  const load = async (): Promise<RankingData> => prepareRanking((await readVoteFile(`${FIXTURES}${stem}.jsonl`)).table);

  it('counts votes, cells and outcomes exactly', async () => {
    const data = await load();
    const { table } = data;
    expect(table.votesRaw).toBe(expected.n_votes_raw);
    expect(table.length).toBe(expected.n_votes_used);
    expect(table.selfPlayDropped).toBe(expected.n_selfplay_dropped);
    expect(table.models.length).toBe(expected.n_models);
    expect([...table.models]).toEqual(expected.model_order);
    expect(data.cellCount).toBe(expected.n_cells);
    const outcomes = [0, 0, 0];
    for (const code of table.outcome) outcomes[Math.min(code, OUTCOME_CODE.tie)]! += 1;
    expect(outcomes).toEqual([expected.outcomes.model_a, expected.outcomes.model_b, expected.outcomes.tie_or_bothbad]);
    table.models.forEach((model, index) => {
      const tally = data.tallies[index]!;
      expect({ votes: tally.votes, wins: tally.wins, losses: tally.losses, ties: tally.ties + tally.bothBad }).toEqual(
        expected.per_model[model],
      );
    });
  });

  it('finds the components, the MLE existence and the provisional models exactly', async () => {
    const { graph, table } = await load();
    const names = (groups: number[][]): string[][] => groups.map((group) => group.map((model) => table.models[model]!));
    expect(names(graph.components)).toEqual(expected.components);
    expect(names(graph.strongComponents)).toEqual(expected.strong_components);
    expect(graph.mleExists).toBe(expected.mle_exists);
    expect(table.models.filter((_, index) => graph.provisional[index])).toEqual(expected.provisional_models);
  });

  if (expected.style_features) {
    it('standardises the style features like the oracle', async () => {
      const data = await load();
      const fit = fitVariant(data, 'style_fastchat');
      fit.style!.meanD.forEach((mean, feature) =>
        expectClose(mean, expected.style_features!.mean_d[feature]!, 1e-9, 1e-12, `mean_d ${feature}`),
      );
      fit.style!.stdD.forEach((std, feature) =>
        expectClose(std, expected.style_features!.std_d[feature]!, 1e-9, 1e-12, `std_d ${feature}`),
      );
    });
  }

  for (const [name, variant] of Object.entries(expected.variants)) {
    if (name === 'bt_mle_drop_ties') {
      it(`bt_mle_drop_ties ${variant ? 'matches the oracle' : 'is reported as not existing'}`, async () => {
        const data = await load();
        if (!variant) {
          expect(missingMleReason(data, 'bt_mle_drop_ties')).not.toBeNull();
          return;
        }
        const fit = fitVariant(data, 'bt_mle_drop_ties');
        fit.models.forEach((model, index) =>
          expectClose(fit.ratings[index]!, variant.ratings[model]!, 0, 0.01, `drop-ties rating ${model}`),
        );
      });
      continue;
    }
    it(`${name} ${variant ? 'matches the oracle at the spec tolerances' : 'is refused: no finite MLE'}`, async () => {
      const data = await load();
      if (!variant) {
        expect(() => fitVariant(data, name as RankingVariant)).toThrow(RankingError);
        return;
      }
      checkVariant(data, name, variant as ExpectedVariant, expected);
    });
  }

  if (!('bt_mle_drop_ties' in expected.variants)) {
    it('bt_mle_drop_ties does not exist (no decisive votes)', async () => {
      expect(missingMleReason(await load(), 'bt_mle_drop_ties')).not.toBeNull();
    });
  }

  if (expected.anchor_example) {
    it('applies the named anchor as a pure shift', async () => {
      const { table } = await readVoteFile(`${FIXTURES}${stem}.jsonl`);
      const example = expected.anchor_example!;
      const board = computeLeaderboard(table, {
        variant: 'bt_mle',
        anchor: { model: example.anchor_model, rating: example.anchor_rating },
      });
      for (const row of board.rows) expectClose(row.rating, example.ratings[row.model]!, 0, 0.01, `anchored ${row.model}`);
    });
  }
});

describe.each(['votes_1k', 'adv_base8', 'adv_disconnected'])('multinomial bootstrap on %s (docs/ranking.md#tolerances)', (stem) => {
  it('has SDs in line with the sandwich SEs: median ratio in [0.9, 1.1], every model in [0.7, 1.3]', async () => {
    const data = prepareRanking((await readVoteFile(`${FIXTURES}${stem}.jsonl`)).table);
    const fit = fitVariant(data, 'bt_mle');
    const rounds = 200;
    const samples = bootstrapBradleyTerry(data.pairs, {
      rounds,
      lambdaTheta: 0,
      initialTheta: fit.theta,
      gaugeComponents: data.graph.components,
      gaugeReference: data.graph.components,
      random: createSeededRandom(2024),
    });
    const summary = summarizeReplicates(samples.theta, rounds, data.table.models.length);
    const ratios = [...summary.sd].map((sd, model) => (SCALE * sd) / fit.seSandwich[model]!).sort((a, b) => a - b);
    const median = ratios[Math.floor(ratios.length / 2)]!;
    expect(median).toBeGreaterThanOrEqual(0.9);
    expect(median).toBeLessThanOrEqual(1.1);
    expect(ratios[0]).toBeGreaterThanOrEqual(0.7);
    expect(ratios[ratios.length - 1]).toBeLessThanOrEqual(1.3);
  });
});
