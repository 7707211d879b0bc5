import { describe, expect, it } from 'vitest';
import type { RankingReactionRecord } from '../../db/repositories/feedback.repository';
import { reactionViewVotes, viewKey, voteLanguage } from './leaderboard-views';

const reaction = (
  duelId: string,
  turn: number,
  side: 'a' | 'b',
  liked: boolean,
  extra: Partial<RankingReactionRecord> = {},
): RankingReactionRecord => ({
  duelId,
  turn,
  side,
  liked,
  modelA: 'm1',
  modelB: 'm2',
  mode: 'random',
  locale: 'fr-CA',
  identityLeak: false,
  languages: null,
  messageLanguages: null,
  categories: null,
  ...extra,
});

describe('leaderboard views', () => {
  it('names views and derives a vote language from the locale', () => {
    expect(viewKey({ style: 'plain' })).toBe('overall|plain');
    expect(viewKey({ style: 'controlled', language: 'fr', mode: 'reasoning' })).toBe('language=fr&mode=reasoning|controlled');
    expect(voteLanguage('fr-CA')).toBe('fr');
    expect(voteLanguage(null)).toBeNull();
    expect(viewKey({ style: 'plain', category: 'Sports' })).toBe('category=Sports|plain');
  });

  it('prefers the language post-processing detected over the visitor locale, unless it could not tell', () => {
    const prompts = (...languages: string[]) => languages.map((prompt) => ({ prompt, a: 'en', b: 'en' }));
    // The visitor wrote in Occitan twice and French once; the English answers do not make it an English vote.
    expect(voteLanguage('fr-FR', { languages: ['en', 'oc', 'fr'], messageLanguages: prompts('oc', 'fr', 'oc') })).toBe('oc');
    expect(voteLanguage('fr-FR', { languages: ['en', 'fr'], messageLanguages: prompts('fr', 'es') })).toBe('fr');
    expect(voteLanguage('fr-FR', { languages: ['de'], messageLanguages: prompts('und') })).toBe('de');
    expect(voteLanguage('fr-FR', { languages: ['und'], messageLanguages: prompts('und') })).toBe('fr');
    expect(voteLanguage(null, { languages: [], messageLanguages: [] })).toBeNull();
    const [detected] = reactionViewVotes([
      reaction('d1', 1, 'a', true, { languages: ['en', 'br'], messageLanguages: prompts('br'), categories: ['Arts', 'Education'] }),
    ]);
    expect(detected).toMatchObject({ language: 'br', categories: ['Arts', 'Education'] });
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
