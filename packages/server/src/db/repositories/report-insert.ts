import type { Kysely } from 'kysely';
import type { Database } from '../database';

/** A visitor's report of a conversation (turn and side null) or of one answer. */
export interface ReportRecord {
  id: string;
  duelId: string;
  category: string;
  reason: string;
  turn: number | null;
  side: string | null;
  createdAt: string;
}

/**
 * Stores a report unless its target already has one (the conversation, or one answer: turn and
 * side, null for the conversation): two reports at once still make one.
 */
export async function insertReportOnce(db: Kysely<Database>, report: ReportRecord): Promise<void> {
  await db
    .insertInto('reports')
    .columns(['id', 'duel_id', 'category', 'reason', 'turn', 'side', 'created_at'])
    .expression(
      db
        .selectNoFrom((eb) => [
          eb.val(report.id).as('id'),
          eb.val(report.duelId).as('duel_id'),
          eb.val(report.category).as('category'),
          eb.val(report.reason).as('reason'),
          // Typed, so that PostgreSQL knows the type of a null parameter in a SELECT without a table.
          eb.cast<number | null>(eb.val(report.turn), 'integer').as('turn'),
          eb.cast<string | null>(eb.val(report.side), 'text').as('side'),
          eb.val(report.createdAt).as('created_at'),
        ])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('reports')
                .select('id')
                .where('duel_id', '=', report.duelId)
                .where('turn', report.turn === null ? 'is' : '=', report.turn)
                .where('side', report.side === null ? 'is' : '=', report.side),
            ),
          ),
        ),
    )
    // Two reports at once may both pass NOT EXISTS (PostgreSQL, READ COMMITTED): the unique index
    // on the target (migration report_target_unique) keeps one, and the other changes nothing.
    .onConflict((conflict) => conflict.doNothing())
    .execute();
}
