import { describe, expect, it } from 'vitest';
import type { RankingReactionRecord } from '../db/repositories/feedback.repository';
import { reactionViewVotes, viewKey, voteLanguage } from './leaderboard-views';

const reaction = (duelId: string, turn: number, side: 'a' | 'b', liked: boolean, extra: Partial<RankingReactionRecord> = {}): RankingReactionRecord => ({
  duelId, turn, side, liked, modelA: 'm1', modelB: 'm2', mode: 'random', locale: 'fr-CA', identityLeak: false, ...extra,
});

describe('leaderboard views', () => {
  it('names views and derives a vote language from the locale', () => {
    expect(viewKey({ style: 'plain' })).toBe('overall|plain');
    expect(viewKey({ style: 'controlled', language: 'fr', mode: 'reasoning' })).toBe('language=fr&mode=reasoning|controlled');
    expect(voteLanguage('fr-CA')).toBe('fr');
    expect(voteLanguage(null)).toBeNull();
  });

  it('turns reactions into one match per duel with compar:IA rules, leaving out leaks and duels with three reactions', () => {
    const votes = reactionViewVotes([
      reaction('d1', 1, 'a', true),
      reaction('d2', 1, 'b', false),
      reaction('d3', 1, 'a', true),
      reaction('d3', 2, 'b', true),
      reaction('d4', 1, 'a', true, { identityLeak: true }),
      reaction('d5', 1, 'a', true),
      reaction('d5', 1, 'b', true),
      reaction('d5', 2, 'a', false),
    ]);
    expect(votes.map((view) => view.vote.choice)).toEqual(['a', 'a', 'a']);
    expect(votes[0]).toMatchObject({ language: 'fr', mode: 'random', vote: { modelA: 'm1', modelB: 'm2' } });
  });
});
