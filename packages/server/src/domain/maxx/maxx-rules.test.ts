import { describe, expect, it } from 'vitest';
import {
  type BothOrders,
  type JudgedOriginal,
  type PairVerdict,
  complaintStrength,
  decideArenaRow,
  decideReactionRow,
  failedCriteria,
  isPositionConsistent,
  pairOutcome,
  subsetOfVote,
} from './maxx-rules';
import { MAXX_COLUMNS, maxxRow } from './maxx-rows';
import { neutraliseFormatting } from './neutral-format';

const verdict = (preferred: PairVerdict['preferred'], confidence = 4): PairVerdict => ({ preferred, confidence });
const orders = (first: PairVerdict, second: PairVerdict): BothOrders => ({ optimalFirst: first, optimalSecond: second });
const original = (side: 'a' | 'b', judging: BothOrders): JudgedOriginal => ({ side, text: `reply ${side}`, judging });

describe('the judge in both orders', () => {
  it('is a win only when both orders prefer the optimal reply, by their mean confidence', () => {
    expect(pairOutcome(orders(verdict('optimal', 5), verdict('optimal', 3)))).toEqual({ kind: 'win', margin: 4 });
    expect(pairOutcome(orders(verdict('optimal', 5), verdict('tie')))).toEqual({ kind: 'no-win' });
    expect(pairOutcome(orders(verdict('original'), verdict('original')))).toEqual({ kind: 'no-win' });
    expect(pairOutcome(orders(verdict('tie'), verdict('tie')))).toEqual({ kind: 'no-win' });
  });

  it('calls contradicting orders inconsistent: the judge followed the position', () => {
    expect(pairOutcome(orders(verdict('optimal'), verdict('original')))).toEqual({ kind: 'inconsistent' });
    expect(pairOutcome(orders(verdict('original'), verdict('optimal')))).toEqual({ kind: 'inconsistent' });
    expect(isPositionConsistent(orders(verdict('optimal'), verdict('original')))).toBe(false);
    expect(isPositionConsistent(orders(verdict('tie', 2), verdict('tie', 5)))).toBe(true);
  });

  it('keeps confidences within 1–5', () => {
    expect(pairOutcome(orders(verdict('optimal', 9), verdict('optimal', -3)))).toEqual({ kind: 'win', margin: 3 });
    expect(pairOutcome(orders(verdict('optimal', Number.NaN), verdict('optimal', 5)))).toEqual({ kind: 'win', margin: 3 });
  });
});

describe('arena rows', () => {
  it('keeps a row that beats both originals; rejected is the harder one, rejected_2 the other', () => {
    const a = original('a', orders(verdict('optimal', 5), verdict('optimal', 5)));
    const b = original('b', orders(verdict('optimal', 4), verdict('optimal', 3)));
    expect(decideArenaRow([a, b])).toEqual({ keep: true, rejected: b, rejected2: a, prefStrength: 'medium' });
  });

  it('is strong when even the harder original lost by a mean confidence of 4 or more', () => {
    const a = original('a', orders(verdict('optimal', 5), verdict('optimal', 4)));
    const b = original('b', orders(verdict('optimal', 4), verdict('optimal', 4)));
    expect(decideArenaRow([a, b])).toMatchObject({ keep: true, rejected: b, prefStrength: 'strong' });
  });

  it('breaks a tie between margins by side, a first, so that a rerun decides the same', () => {
    const judging = orders(verdict('optimal', 4), verdict('optimal', 4));
    const decision = decideArenaRow([original('b', judging), original('a', judging)]);
    expect(decision).toMatchObject({ keep: true, rejected: { side: 'a' }, rejected2: { side: 'b' } });
  });

  it('drops a row that does not beat an original, or whose judging contradicts itself', () => {
    const win = original('a', orders(verdict('optimal'), verdict('optimal')));
    expect(decideArenaRow([win, original('b', orders(verdict('tie'), verdict('optimal')))])).toEqual({ keep: false, reason: 'lost' });
    expect(decideArenaRow([win, original('b', orders(verdict('optimal'), verdict('original')))])).toEqual({
      keep: false,
      reason: 'inconsistent',
    });
    expect(decideArenaRow([])).toEqual({ keep: false, reason: 'no original' });
  });

  it('goes to arena-both_bad for a both-bad vote and to arena-general for any other outcome', () => {
    expect(subsetOfVote('both_bad')).toBe('arena-both_bad');
    for (const choice of ['a', 'b', 'tie'] as const) expect(subsetOfVote(choice)).toBe('arena-general');
  });
});

describe('reactions rows', () => {
  const won = orders(verdict('optimal', 2), verdict('optimal', 2));
  it('take their strength from the critic’s verdict on the complaint', () => {
    expect(complaintStrength('valid')).toBe('strong');
    expect(complaintStrength('partly')).toBe('medium');
    expect(complaintStrength('mistaken')).toBe('weak');
    expect(decideReactionRow({ fixesDefect: true, judging: won, complaint: 'mistaken' })).toEqual({ keep: true, prefStrength: 'weak' });
  });

  it('are dropped when the defect is not fixed or the disliked answer is not beaten in both orders', () => {
    expect(decideReactionRow({ fixesDefect: false, judging: won, complaint: 'valid' })).toEqual({
      keep: false,
      reason: 'defect not fixed',
    });
    expect(decideReactionRow({ fixesDefect: true, judging: orders(verdict('tie'), verdict('tie')), complaint: 'valid' })).toEqual({
      keep: false,
      reason: 'lost',
    });
    expect(decideReactionRow({ fixesDefect: true, judging: orders(verdict('original'), verdict('optimal')), complaint: 'valid' })).toEqual({
      keep: false,
      reason: 'inconsistent',
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

  it('leaves plain prose and arithmetic alone', () => {
    expect(neutraliseFormatting('2 * 3 = 6 and snake_case_name stay.')).toBe('2 * 3 = 6 and snake_case_name stay.');
  });
});
