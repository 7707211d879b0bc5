import type { DuelStatus, TurnVerdict, TurnVerdictEntry } from '@agora/contract';
import type { StoredTurnChoice, TurnVerdictRecord } from '../../db/repositories/turn-verdict.repository';
import { checkReaction, type TurnStatus } from '../../domain/arena/duel-rules';
import { AppError } from '../app-error';
import { hashClientAddressGroup } from '../visitor-hashes';
import { requireDuel, throwIfConflict } from './duel-access';
import type { DuelServiceDependencies } from './duel-dependencies';

type VerdictDependencies = Pick<DuelServiceDependencies, 'store' | 'runtime'>;

// The store keeps compar:IA's imported choices as `a`/`b`; the API speaks compar:IA's own words.
const STORED: Record<TurnVerdict, StoredTurnChoice> = { a_better: 'a', b_better: 'b', both_good: 'both_good', both_bad: 'both_bad' };
const SPOKEN: Record<StoredTurnChoice, TurnVerdict> = { a: 'a_better', b: 'b_better', both_good: 'both_good', both_bad: 'both_bad' };

/**
 * The duel's visitor gives (or changes) a verdict on one completed turn. Taken on the same terms as
 * a reaction (duel-rules.ts `checkReaction`): only a completed turn, never a failed one, and only
 * until the duel's vote, which stays the final word and the only door to the reveal. The answer names
 * no model.
 */
export async function giveTurnVerdict(
  { store, runtime }: VerdictDependencies,
  target: { duelId: string; turn: number },
  verdict: TurnVerdict,
  requester: { visitorId: string; address: string },
): Promise<TurnVerdictEntry> {
  const { duelId, turn } = target;
  const duel = await requireDuel(store, duelId, requester.visitorId);
  const turnStatus = await store.duels.findTurnStatus(duelId, turn);
  if (turnStatus === undefined) throw new AppError('turn_not_found', `this duel has no turn ${turn}`);
  const conflict = checkReaction({ status: duel.status as DuelStatus, turnCount: duel.turnCount }, turnStatus as TurnStatus);
  if (conflict === 'duel_failed' && duel.status !== 'failed')
    throw new AppError('duel_failed', 'this turn failed: its answers are withheld, and it takes no verdict');
  throwIfConflict(conflict);
  const now = runtime.now().toISOString();
  await store.turnVerdicts.upsert({
    duelId,
    turn,
    choice: STORED[verdict],
    clientHash: hashClientAddressGroup(requester.address),
    createdAt: now,
    updatedAt: now,
  });
  return { turn, verdict };
}

/** A duel's verdicts as its visitor reads them back. */
export function spokenVerdicts(records: readonly TurnVerdictRecord[]): TurnVerdictEntry[] {
  return records.map((record) => ({ turn: record.turn, verdict: SPOKEN[record.choice] }));
}
