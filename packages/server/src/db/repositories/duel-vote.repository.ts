import { type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../database';
import { PreparedQuery } from '../prepared-query';
import { AnnotationRepository } from './annotation.repository';
import { type DuelRecord, type TurnSideSummary, duelColumns, toDuelRecord, toSideSummary } from './duel-records';
import { type VoteRecord, voteRow } from './feedback.repository';

// The vote path, the busiest write of the arena: one read and one short transaction of two statements, compiled once.
const voteContextQuery = new PreparedQuery((db, values: { duelId: string }) =>
  db
    .selectFrom('duels')
    .leftJoin('turn_sides', 'turn_sides.duel_id', 'duels.id')
    .select(duelColumns.map((column) => `duels.${column}` as const))
    .select([
      'turn_sides.turn',
      'turn_sides.side',
      'turn_sides.model_id',
      'turn_sides.output_tokens',
      'turn_sides.output_tokens_source',
      'turn_sides.status as side_status',
    ])
    .select([
      'turn_sides.error_kind',
      'turn_sides.finish_reason',
      'turn_sides.ttft_ms',
      'turn_sides.duration_ms',
      'turn_sides.identity_leak',
      'turn_sides.served_model_mismatch',
      'turn_sides.style',
    ])
    .where('duels.id', '=', values.duelId)
    .orderBy('turn_sides.turn')
    .orderBy('turn_sides.side'),
);

const markVotedQuery = new PreparedQuery((db, values: { duelId: string; at: string }) =>
  db.updateTable('duels').set({ status: 'voted', updated_at: values.at }).where('id', '=', values.duelId).where('status', '=', 'ready'),
);

const insertVoteQuery = new PreparedQuery((db, values: ReturnType<typeof voteRow>) =>
  db.insertInto('votes').values({
    duel_id: values.duel_id,
    choice: values.choice,
    model_a: values.model_a,
    model_b: values.model_b,
    tags_a: values.tags_a,
    tags_b: values.tags_b,
    comment_a: values.comment_a,
    comment_b: values.comment_b,
    identity_leak: values.identity_leak,
    served_model_mismatch: values.served_model_mismatch,
    mode: values.mode,
    locale: values.locale,
    created_at: values.created_at,
    style_a: values.style_a,
    style_b: values.style_b,
    tokens_a: values.tokens_a,
    tokens_b: values.tokens_b,
    energy_a: values.energy_a,
    energy_b: values.energy_b,
    client_hash: values.client_hash,
  }),
);

/** Votes on duels: the read a vote needs, and closing `ready` duels with their votes, one by one or in groups. */
export class DuelVoteRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A duel with its sides' summaries (`DuelRepository.listSideSummaries`) in one read: what a vote needs. */
  async findVoteContext(duelId: string): Promise<{ duel: DuelRecord; sides: TurnSideSummary[] } | undefined> {
    const { rows } = await voteContextQuery.execute(this.db, { duelId });
    if (rows.length === 0) return undefined;
    const sides = rows.flatMap((row) =>
      row.turn === null
        ? []
        : [
            toSideSummary({
              ...row,
              turn: row.turn,
              side: row.side!,
              model_id: row.model_id!,
              status: row.side_status!,
              identity_leak: row.identity_leak!,
              served_model_mismatch: row.served_model_mismatch!,
            }),
          ],
    );
    return { duel: toDuelRecord(rows[0]!), sides };
  }

  /** Moves a `ready` duel to `voted`; false when it was not `ready` any more (a concurrent vote or turn). */
  async markVoted(duelId: string, at: string): Promise<boolean> {
    const updated = await markVotedQuery.execute(this.db, { duelId, at });
    return Number(updated.numAffectedRows) === 1;
  }

  /**
   * Closes a `ready` duel with its vote: marks it `voted` and stores the vote, in the caller's
   * transaction. False, with nothing stored, when the duel was not `ready` any more (a concurrent vote or turn).
   */
  async closeWithVote(vote: VoteRecord): Promise<boolean> {
    if (!(await this.markVoted(vote.duelId, vote.createdAt))) return false;
    await insertVoteQuery.execute(this.db, voteRow(vote));
    return true;
  }

  /**
   * Records a group of votes (group commit) and queues their conversations for post-processing,
   * atomically. Only the first vote of each duel still `ready` counts; the result says, vote by
   * vote, whether it was recorded. On PostgreSQL one statement does it all (data-modifying common
   * table expressions, committed on their own): one round trip instead of five (BEGIN, three
   * statements, COMMIT), each of which a remote server makes the group wait for. On SQLite, which
   * has no such statement, the same three statements run in the caller's transaction or in one of
   * their own.
   */
  async recordVotes(votes: readonly VoteRecord[]): Promise<boolean[]> {
    const firstOfDuel = new Map<string, number>();
    votes.forEach((vote, index) => {
      if (!firstOfDuel.has(vote.duelId)) firstOfDuel.set(vote.duelId, index);
    });
    const at = votes.reduce((latest, vote) => (vote.createdAt > latest ? vote.createdAt : latest), votes[0]!.createdAt);
    let closedIds: Set<string>;
    if (this.db.getExecutor().adapter instanceof PostgresAdapter) {
      closedIds = await this.closeAndQueueInOneStatement(
        [...firstOfDuel.values()].map((index) => votes[index]!),
        at,
      );
    } else if (this.db.isTransaction) {
      closedIds = await this.closeAndQueue(votes, firstOfDuel, at);
    } else {
      closedIds = await this.db
        .transaction()
        .execute((transaction) => new DuelVoteRepository(transaction).closeAndQueue(votes, firstOfDuel, at));
    }
    return votes.map((vote, index) => closedIds.has(vote.duelId) && firstOfDuel.get(vote.duelId) === index);
  }

  /** SQLite: the ready duels marked voted, their first votes stored, their conversations queued. */
  private async closeAndQueue(votes: readonly VoteRecord[], firstOfDuel: Map<string, number>, at: string): Promise<Set<string>> {
    const closedIds =
      votes.length === 1
        ? new Set((await this.closeWithVote(votes[0]!)) ? [votes[0]!.duelId] : [])
        : await this.closeWithVotes(votes, firstOfDuel, at);
    if (closedIds.size > 0) await new AnnotationRepository(this.db).enqueue([...closedIds], at);
    return closedIds;
  }

  /**
   * PostgreSQL: {@link closeAndQueue} as one statement. The votes travel as one JSON parameter, so
   * the text never changes with the group's size. The queueing keeps the rule of
   * {@link AnnotationRepository.enqueue} (a whole annotation stays, a grown one is queued again).
   */
  private async closeAndQueueInOneStatement(firstVotes: readonly VoteRecord[], at: string): Promise<Set<string>> {
    const { rows } = await sql<{ id: string }>`
      with input as (
        select * from json_to_recordset(${JSON.stringify(firstVotes.map(voteRow))}::json) as v(
          duel_id text, choice text, model_a text, model_b text, tags_a text, tags_b text, comment_a text, comment_b text,
          identity_leak integer, served_model_mismatch integer, mode text, locale text, created_at text, style_a text, style_b text,
          tokens_a integer, tokens_b integer, energy_a text, energy_b text, client_hash text)
      ), closed as (
        update duels set status = 'voted', updated_at = ${at}
        where id in (select duel_id from input) and status = 'ready'
        returning id
      ), recorded as (
        insert into votes (duel_id, choice, model_a, model_b, tags_a, tags_b, comment_a, comment_b, identity_leak, served_model_mismatch, mode, locale, created_at, style_a, style_b, tokens_a, tokens_b, energy_a, energy_b, client_hash)
        select duel_id, choice, model_a, model_b, tags_a, tags_b, comment_a, comment_b, identity_leak, served_model_mismatch, mode, locale, created_at, style_a, style_b, tokens_a, tokens_b, energy_a, energy_b, client_hash
        from input where duel_id in (select id from closed)
      ), queued as (
        insert into conversation_annotations (duel_id, status, attempts, next_attempt_at, turns_annotated, model_status, updated_at)
        select id, 'pending', 0, ${at}, 0, 'pending', ${at} from closed
        on conflict (duel_id) do update
          set status = 'pending', attempts = 0, last_error = null, next_attempt_at = excluded.next_attempt_at, updated_at = excluded.updated_at
          where conversation_annotations.status = 'done'
            and conversation_annotations.turns_annotated < (select turn_count from duels where duels.id = conversation_annotations.duel_id)
      )
      select id from closed`.execute(this.db);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * {@link closeWithVote} for several votes at once, in two statements whatever their number: one
   * update of the `ready` duels among them, one insert of the first vote of each closed duel.
   */
  private async closeWithVotes(votes: readonly VoteRecord[], firstOfDuel: Map<string, number>, at: string): Promise<Set<string>> {
    const closed = await this.db
      .updateTable('duels')
      .set({ status: 'voted', updated_at: at })
      .where('id', 'in', [...firstOfDuel.keys()])
      .where('status', '=', 'ready')
      .returning('id')
      .execute();
    const closedIds = new Set(closed.map((row) => row.id));
    const rows = [...firstOfDuel.values()].filter((index) => closedIds.has(votes[index]!.duelId)).map((index) => voteRow(votes[index]!));
    if (rows.length > 0) await this.db.insertInto('votes').values(rows).execute();
    return closedIds;
  }
}
