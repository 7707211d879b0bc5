import { describe, expect, it } from 'vitest';
import { modelTallies, observedWinShare, predictedWinProbability, recordOf } from './model-tallies';
import { RankingVoteColumns, type ViewVote } from './vote-columns';

function vote(modelA: string, modelB: string, choice: ViewVote['vote']['choice'], language: string | null): { view: ViewVote } {
  return { view: { vote: { modelA, modelB, choice }, language, mode: 'random', categories: [] } };
}

describe('model tallies', () => {
  it('counts each pair from either side and each model per language, over the votes on the main board only', () => {
    const columns = new RankingVoteColumns();
    // Columns number the models as they come: zeta first, so that column order and id order differ.
    for (const input of [
      vote('zeta', 'alpha', 'a', 'fr'),
      vote('alpha', 'zeta', 'a', 'fr'),
      vote('alpha', 'zeta', 'tie', 'en'),
      vote('zeta', 'alpha', 'both_bad', null),
      vote('zeta', 'alpha', 'b', 'fr'),
      vote('alpha', 'beta', 'b', 'fr'),
    ])
      columns.put(input);
    const view = columns.view();
    // The last but one is left out (as a flagged vote would be).
    const onMainBoard = Uint8Array.from([1, 1, 1, 1, 0, 1]);
    const tallies = modelTallies(view, onMainBoard, '2026-12-07T10:00:00.000Z');
    expect(recordOf(tallies, 'alpha', 'zeta')).toEqual({ wins: 1, ties: 1, bothBad: 1, losses: 1 });
    expect(recordOf(tallies, 'zeta', 'alpha')).toEqual({ wins: 1, ties: 1, bothBad: 1, losses: 1 });
    expect(recordOf(tallies, 'beta', 'alpha')).toEqual({ wins: 1, ties: 0, bothBad: 0, losses: 0 });
    expect(recordOf(tallies, 'beta', 'zeta')).toBeUndefined();
    const languages = (model: string) =>
      Object.fromEntries(tallies.languages.filter((entry) => entry.model === model).map((entry) => [entry.language, entry.votes]));
    expect(languages('alpha')).toEqual({ fr: 3, en: 1 });
    expect(languages('zeta')).toEqual({ fr: 2, en: 1 });
    expect(languages('beta')).toEqual({ fr: 1 });
  });

  it('predicts with the 400-point base-10 scale and shares ties and both-bad votes by halves', () => {
    expect(predictedWinProbability(1400, 1000)).toBeCloseTo(10 / 11, 12);
    expect(predictedWinProbability(1000, 1000)).toBe(0.5);
    expect(observedWinShare({ wins: 2, ties: 1, bothBad: 1, losses: 0 })).toBe(0.75);
    expect(observedWinShare({ wins: 0, ties: 0, bothBad: 0, losses: 0 })).toBeNull();
  });
});
