import { describe, expect, it } from 'vitest';
import type { DuelRecord } from '../db/repositories/duel.repository';
import { RecentVoteContexts } from './recent-vote-contexts';

const context = (id: string) => ({ duel: { id, status: 'ready' } as DuelRecord, sides: [] });

describe('RecentVoteContexts', () => {
  it('keeps the most recently remembered duels up to its capacity', () => {
    const contexts = new RecentVoteContexts(2);
    contexts.remember('d1', context('d1'));
    contexts.remember('d2', context('d2'));
    contexts.remember('d1', context('d1'));
    contexts.remember('d3', context('d3'));
    expect(contexts.size).toBe(2);
    expect(contexts.get('d2')).toBeUndefined();
    expect(contexts.get('d1')?.duel.id).toBe('d1');
    contexts.forget('d1');
    expect(contexts.get('d1')).toBeUndefined();
    expect(contexts.get('d3')?.duel.id).toBe('d3');
  });
});
