import type { DuelRecord } from '../../db/repositories/duel.repository';
import type { Store } from '../../db/unit-of-work';
import type { DuelConflict } from '../../domain/arena/duel-rules';
import { AppError } from '../app-error';
import { hashVisitor } from '../visitor-hashes';

// Who may reach a duel, and what a visitor is told when the duel's state refuses a request.

const conflictMessages: Record<DuelConflict, string> = {
  already_voted: 'this duel has already been voted on',
  duel_failed: 'a turn of this duel failed: it can be neither continued nor voted on',
  turn_in_progress: 'a turn is still streaming',
  turn_limit_reached: 'this duel has reached its maximum number of turns',
};

export function throwIfConflict(conflict: DuelConflict | null): void {
  if (conflict) throw new AppError(conflict, conflictMessages[conflict]);
}

/**
 * The duel, when it exists here and belongs to this visitor. Another visitor's duel is "not found"
 * rather than forbidden: its id, if guessed or leaked, says nothing, and nobody else can read,
 * continue, react to, vote on or report it.
 */
export async function requireDuel(store: Store, duelId: string, visitorId: string): Promise<DuelRecord> {
  const duel = await store.duels.findById(duelId);
  if (!duel || !isVisitorsDuel(duel, visitorId)) throw new AppError('duel_not_found', 'no duel with this id');
  return duel;
}

/** A duel played here by this visitor: any other is "not found" for them (see {@link requireDuel}). */
export function isVisitorsDuel(duel: DuelRecord, visitorId: string): boolean {
  return isPlayable(duel) && isOwner(duel, visitorId);
}

/**
 * Only duels played here exist for visitors. Imported ones (compar:IA) have ids derived from public
 * pair ids: anyone could otherwise vote, react or prompt the models on them.
 */
function isPlayable(duel: DuelRecord): boolean {
  return duel.source === undefined || duel.source === 'arena';
}

function isOwner(duel: Pick<DuelRecord, 'visitorHash'>, visitorId: string): boolean {
  return duel.visitorHash === hashVisitor(visitorId);
}
