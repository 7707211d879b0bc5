import { describe, expect, it } from 'vitest';
import type { RankingReactionRecord } from '../../db/repositories/feedback.repository';
import {
  OWN_VIEW_MODES,
  type ViewDefinition,
  computeViewsFromColumns,
  reactionViewVotes,
  viewKey,
  voteLanguage,
} from './leaderboard-views';
import { RankingVoteColumns, type ViewVote } from './vote-columns';
import type { VoteFacts } from '../arena/vote-integrity';

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

describe('custom-mode votes', () => {
  const ballot = (choice: 'a' | 'b', mode: string): ViewVote => ({
    vote: { modelA: 'm1', modelB: 'm2', choice },
    language: 'fr',
    mode,
    categories: ['Sports'],
  });
  const definition = (filter: Partial<ViewDefinition>, ownViewModes?: readonly string[]): ViewDefinition => {
    const view = { style: 'plain' as const, language: null, mode: null, category: null, ...filter };
    return { ...view, key: viewKey(view), ownViewModes };
  };
  const facts = (index: number, choice: 'a' | 'b', source = 'arena'): VoteFacts => ({
    duelId: `d${index}`,
    createdAt: new Date(Date.UTC(2026, 11, 1, 0, index)).toISOString(),
    source,
    visitor: `v${index}`,
    client: `c${index}`,
    choice,
    modelA: 'm1',
    modelB: 'm2',
    votedAfterMs: 10_000,
    review: null,
  });
  // Random pairs: m1 wins 6 of 10. Arena duels where the visitor chose the models: m2 wins all 30.
  // Imported custom-mode votes were curated by their publisher: they count everywhere.
  const columns = new RankingVoteColumns();
  for (let index = 0; index < 10; index++) columns.put({ view: ballot(index < 6 ? 'a' : 'b', 'random'), facts: facts(index, 'a') });
  for (let index = 10; index < 40; index++) columns.put({ view: ballot('b', 'custom'), facts: facts(index, 'b') });
  for (let index = 40; index < 42; index++) columns.put({ view: ballot('a', 'custom'), facts: facts(index, 'a', 'comparia') });
  const view = columns.view();
  const counted = new Uint8Array(view.length).fill(1);
  const votesIn = (definitions: ViewDefinition[]) =>
    [...computeViewsFromColumns(view, counted, definitions).values()].map((board) => board.nVotesUsed);

  it('count only in their own view, not on the main board nor in the language and topic views', () => {
    const own = OWN_VIEW_MODES;
    expect(votesIn([definition({}, own), definition({ language: 'fr' }, own), definition({ category: 'Sports' }, own)])).toEqual([
      12, 12, 12,
    ]);
    expect(votesIn([definition({ mode: 'custom' }, own), definition({ mode: 'random' }, own)])).toEqual([32, 10]);
    const main = computeViewsFromColumns(view, counted, [definition({}, own)]).get('overall|plain')!;
    expect(main.rows[0]!.model).toBe('m1');
  });

  it('count everywhere when the operator puts them back on the main board', () => {
    expect(votesIn([definition({}, []), definition({ language: 'fr' })])).toEqual([42, 42]);
  });
});
