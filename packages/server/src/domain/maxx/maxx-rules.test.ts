import { describe, expect, it } from 'vitest';
import {
  type BothOrders,
  type JudgedOriginal,
  type PairVerdict,
  complaintStrength,
  decideArenaRow,
  decideReactionRow,
  failedCriteria,
  isPanelWin,
  isPositionConsistent,
  pairOutcome,
  panelOutcome,
  panelStrength,
  subsetOfVote,
} from './maxx-rules';
import { MAXX_COLUMNS, maxxRow } from './maxx-rows';
import { neutraliseFormatting } from './neutral-format';

const verdict = (preferred: PairVerdict['preferred']): PairVerdict => ({ preferred });
const orders = (first: PairVerdict, second: PairVerdict): BothOrders => ({ optimalFirst: first, optimalSecond: second });
const original = (side: 'a' | 'b', ...judgings: BothOrders[]): JudgedOriginal => ({ side, text: `reply ${side}`, judgings });
const won = orders(verdict('optimal'), verdict('optimal'));
const lostBoth = orders(verdict('original'), verdict('original'));
const flipped = orders(verdict('optimal'), verdict('original'));
const tied = orders(verdict('tie'), verdict('tie'));
const halfWon = orders(verdict('optimal'), verdict('tie'));

describe('one judge in both orders', () => {
  it('is a win only when both orders prefer the optimal reply', () => {
    expect(pairOutcome(won)).toBe('win');
    expect(pairOutcome(halfWon)).toBe('no-win');
    expect(pairOutcome(lostBoth)).toBe('no-win');
    expect(pairOutcome(tied)).toBe('no-win');
  });

  it('calls contradicting orders inconsistent: the judge followed the position', () => {
    expect(pairOutcome(flipped)).toBe('inconsistent');
    expect(pairOutcome(orders(verdict('original'), verdict('optimal')))).toBe('inconsistent');
    expect(isPositionConsistent(flipped)).toBe(false);
    expect(isPositionConsistent(tied)).toBe(true);
  });
});

describe('the panel of judges', () => {
  it('is unanimous when every judge wins in both orders', () => {
    expect(panelOutcome([won])).toBe('unanimous');
    expect(panelOutcome([won, won, won])).toBe('unanimous');
  });

  it('holds by a majority only when no judge prefers the original in both orders', () => {
    expect(panelOutcome([won, won, tied])).toBe('majority');
    expect(panelOutcome([won, won, flipped])).toBe('majority');
    expect(panelOutcome([won, won, lostBoth])).toBe('split');
  });

  it('splits when the winners are not more than half: two judges that disagree never make a win', () => {
    expect(panelOutcome([won, tied])).toBe('split');
    expect(panelOutcome([won, lostBoth])).toBe('split');
    expect(panelOutcome([won, flipped])).toBe('split');
    expect(isPanelWin('split')).toBe(false);
  });

  it('is inconsistent or lost when no judge wins', () => {
    expect(panelOutcome([flipped, tied])).toBe('inconsistent');
    expect(panelOutcome([tied, lostBoth])).toBe('lost');
  });

  it('makes a strong pair only from two or more unanimous judges, never from one judge’s say', () => {
    expect(panelStrength('unanimous', 1)).toBe('medium');
    expect(panelStrength('unanimous', 2)).toBe('strong');
    expect(panelStrength('majority', 3)).toBe('medium');
  });
});

describe('arena rows', () => {
  it('keeps a row that beats both originals; rejected is the one won less firmly, rejected_2 the other', () => {
    const a = original('a', won, won, won);
    const b = original('b', won, won, halfWon);
    expect(decideArenaRow([a, b])).toEqual({ keep: true, rejected: b, rejected2: a, prefStrength: 'medium' });
  });

  it('is strong when two judges are unanimous even on the harder original, medium with one judge', () => {
    expect(decideArenaRow([original('a', won, won), original('b', won, won)])).toMatchObject({ keep: true, prefStrength: 'strong' });
    expect(decideArenaRow([original('a', won), original('b', won)])).toMatchObject({ keep: true, prefStrength: 'medium' });
  });

  it('takes as rejected, of two originals won as firmly, the one the visitor preferred (the closer to a good reply)', () => {
    expect(decideArenaRow([original('a', won), original('b', won)], 'b')).toMatchObject({
      rejected: { side: 'b' },
      rejected2: { side: 'a' },
    });
    expect(decideArenaRow([original('a', won), original('b', won)], 'a')).toMatchObject({
      rejected: { side: 'a' },
      rejected2: { side: 'b' },
    });
    // A less firm win still comes first, whatever the visitor preferred.
    expect(decideArenaRow([original('a', won, won, halfWon), original('b', won, won, won)], 'b')).toMatchObject({
      rejected: { side: 'a' },
    });
  });

  it('breaks what remains by side, a first, so that a rerun decides the same', () => {
    for (const preferred of [undefined, 'tie'] as const) {
      const decision = decideArenaRow([original('b', won), original('a', won)], preferred);
      expect(decision).toMatchObject({ keep: true, rejected: { side: 'a' }, rejected2: { side: 'b' } });
    }
  });

  it('drops a row that does not beat an original, whose judging contradicts itself, or whose panel splits', () => {
    const win = original('a', won);
    expect(decideArenaRow([win, original('b', halfWon)])).toEqual({ keep: false, reason: 'lost' });
    expect(decideArenaRow([win, original('b', flipped)])).toEqual({ keep: false, reason: 'inconsistent' });
    expect(decideArenaRow([original('a', won, won), original('b', won, lostBoth)])).toEqual({ keep: false, reason: 'split panel' });
    expect(decideArenaRow([])).toEqual({ keep: false, reason: 'no original' });
  });

  it('goes to arena-both_bad for a both-bad vote and to arena-general for any other outcome', () => {
    expect(subsetOfVote('both_bad')).toBe('arena-both_bad');
    for (const choice of ['a', 'b', 'tie'] as const) expect(subsetOfVote(choice)).toBe('arena-general');
  });
});

describe('reactions rows', () => {
  it('take their strength from the critic’s verdict on the complaint', () => {
    expect(complaintStrength('valid')).toBe('strong');
    expect(complaintStrength('partly')).toBe('medium');
    expect(complaintStrength('mistaken')).toBe('weak');
    expect(decideReactionRow({ fixesDefect: true, judgings: [won], complaint: 'mistaken' })).toEqual({ keep: true, prefStrength: 'weak' });
    expect(decideReactionRow({ fixesDefect: true, judgings: [won], complaint: 'valid' })).toEqual({ keep: true, prefStrength: 'strong' });
  });

  it('are capped at medium when the panel holds by a majority only', () => {
    expect(decideReactionRow({ fixesDefect: true, judgings: [won, won, tied], complaint: 'valid' })).toEqual({
      keep: true,
      prefStrength: 'medium',
    });
  });

  it('are dropped when the defect is not fixed or the disliked answer is not beaten in both orders', () => {
    expect(decideReactionRow({ fixesDefect: false, judgings: [won], complaint: 'valid' })).toEqual({
      keep: false,
      reason: 'defect not fixed',
    });
    expect(decideReactionRow({ fixesDefect: true, judgings: [tied], complaint: 'valid' })).toEqual({ keep: false, reason: 'lost' });
    // A mistaken complaint has no defect to fix: the row is kept, weak.
    expect(decideReactionRow({ fixesDefect: false, judgings: [won], complaint: 'mistaken' })).toEqual({ keep: true, prefStrength: 'weak' });
    expect(decideReactionRow({ fixesDefect: true, judgings: [flipped], complaint: 'valid' })).toEqual({
      keep: false,
      reason: 'inconsistent',
    });
    expect(decideReactionRow({ fixesDefect: true, judgings: [won, tied], complaint: 'valid' })).toEqual({
      keep: false,
      reason: 'split panel',
    });
  });
});

describe('the critic gate', () => {
  it('names every criterion a reply fails', () => {
    const passing = { correct: true, complete: true, followsInstructions: true, rightLanguage: true, noInventedFacts: true };
    expect(failedCriteria(passing)).toEqual([]);
    expect(failedCriteria({ ...passing, rightLanguage: false, correct: false })).toEqual(['correct', 'rightLanguage']);
  });
});

describe('a row of the set', () => {
  const history = [
    { role: 'user' as const, content: 'Première question' },
    { role: 'assistant' as const, content: 'optimal earlier reply' },
    { role: 'user' as const, content: 'Deuxième question, éèà 👍' },
  ];

  it('has every column in order, the conversation shape and the provenance of an arena row', () => {
    const row = maxxRow({
      subset: 'arena-general',
      sourceId: 'pair-1',
      messages: history,
      optimal: 'best',
      optimalStyled: '**best**',
      rejected: 'worse',
      rejected2: 'worst',
      prefStrength: 'strong',
      defectTags: ['incorrect'],
      contextFrom: 'original',
      language: 'fr',
      trainingUse: 'allowed',
    });
    expect(Object.keys(row)).toEqual(MAXX_COLUMNS.map((column) => column.name));
    expect(row).toMatchObject({
      conversation_turns: 2,
      is_multi_turn: true,
      prompt_chars: 24,
      source: 'arena',
      id: 'arena:pair-1',
      incorrect: null,
      superficial: null,
      instructions_not_followed: null,
      pref_strength: 'strong',
      context_from: 'original',
      language: 'fr',
      training_use: 'allowed',
    });
  });

  it('carries the defect tags of a reactions row as booleans, and no strength without a negative', () => {
    const row = maxxRow({
      subset: 'reactions',
      sourceId: 'r-9',
      messages: history.slice(0, 1),
      optimal: 'best',
      optimalStyled: 'best',
      rejected: null,
      rejected2: null,
      prefStrength: 'medium',
      defectTags: ['superficial'],
      contextFrom: 'optimal',
      language: 'fr',
      trainingUse: 'check_licence',
    });
    expect(row).toMatchObject({
      id: 'reactions:r-9',
      source: 'reactions',
      conversation_turns: 1,
      is_multi_turn: false,
      incorrect: false,
      superficial: true,
      instructions_not_followed: false,
      pref_strength: null,
    });
  });

  it('refuses messages that do not end on the user turn', () => {
    expect(() =>
      maxxRow({
        subset: 'arena-general',
        sourceId: 'x',
        messages: history.slice(0, 2),
        optimal: '',
        optimalStyled: '',
        rejected: null,
        rejected2: null,
        prefStrength: null,
        contextFrom: 'optimal',
        language: 'fr',
        trainingUse: 'allowed',
      }),
    ).toThrow(/end on the user turn/);
  });
});

describe('the judge reads replies without their formatting', () => {
  it('drops headers, emphasis, list markers, quotes and rules, and keeps the words and the code', () => {
    const styled = [
      '## Réponse',
      '',
      '',
      '**Paris** est la *capitale*.',
      '- premier point',
      '2. second point',
      '> une citation',
      '---',
      '```js',
      'const x = a * b * c; // **not emphasis**',
      '```',
    ].join('\n');
    expect(neutraliseFormatting(styled)).toBe(
      [
        'Réponse',
        '',
        'Paris est la capitale.',
        'premier point',
        'second point',
        'une citation',
        '```js',
        'const x = a * b * c; // **not emphasis**',
        '```',
      ].join('\n'),
    );
  });

  it('reduces tables, links, images and HTML to their words', () => {
    const styled = [
      '| Ville | Pays |',
      '|---|:-:|',
      '| **Paris** | France |',
      'Voir [la source](https://example.org) et ![une carte](carte.png).',
      '<p>Un <b>mot</b><br/>fin</p>',
    ].join('\n');
    expect(neutraliseFormatting(styled)).toBe(['Ville, Pays', 'Paris, France', 'Voir la source et une carte.', 'Un mot fin'].join('\n'));
  });

  it('leaves comparisons, generics and inline code as they are: only HTML elements are tags', () => {
    expect(neutraliseFormatting('Si x<y et y>z alors x<z.')).toBe('Si x<y et y>z alors x<z.');
    expect(neutraliseFormatting('Use `List<String>` and `<b>` here, <em>now</em>.')).toBe('Use `List<String>` and `<b>` here, now.');
  });

  it('leaves plain prose and arithmetic alone', () => {
    expect(neutraliseFormatting('2 * 3 = 6 and snake_case_name stay.')).toBe('2 * 3 = 6 and snake_case_name stay.');
  });
});
