import type { MyDuel, MyDuels, MyDuelsExport } from '@agora/contract';
import { rowContext } from '../adapters/dataset-files/row-context';
import type { VisitorDuelRows, VisitorReportRow, VisitorVoteRow } from '../db/repositories/visitor-duels.repository';
import type { Store } from '../db/unit-of-work';
import { AppError } from './app-error';
import type { ArenaCatalogue } from './arena-catalogue';
import type { Runtime } from './ports/runtime';
import { hashVisitor } from './visitor-hashes';

/** Duels erased per transaction: well under SQLite's 32,766 bound variables, and short for the other writers. */
const ERASE_BATCH = 200;

/**
 * "My duels" (GDPR articles 15, 17 and 20), bound to the visitor cookie: no account, so the cookie
 * is the only key, and a duel of another cookie is "not found" (never "forbidden": an id guessed or
 * leaked is not confirmed). Erasure deletes the rows, text and visitor link with them, so that no
 * later export, optimised set, review queue or leaderboard refresh can read them
 * (docs/privacy.md#your-duels).
 */
export class MyDuelsService {
  constructor(private readonly dependencies: { store: Store; catalogue: ArenaCatalogue; runtime: Runtime }) {}

  /** The visitor's duels, newest first, with everything the store keeps of them; models only once voted. */
  async list(visitorId: string): Promise<MyDuels> {
    const rows = await this.dependencies.store.visitorDuels.listOfVisitor(hashVisitor(visitorId));
    return { duels: toMyDuels(rows, (modelId) => this.dependencies.catalogue.card(modelId).name) };
  }

  /** {@link list}, stamped with when it was made: the file the visitor downloads. */
  async export(visitorId: string): Promise<MyDuelsExport> {
    return { exported_at: this.dependencies.runtime.now().toISOString(), ...(await this.list(visitorId)) };
  }

  /**
   * Erases one duel of the visitor: 404 when there is none with this id for this cookie (erased
   * already, another visitor's, or never made), 409 while a turn streams (its answers would be
   * written after the erasure).
   */
  async eraseOne(visitorId: string, duelId: string): Promise<{ erased: number }> {
    const [owned] = await this.dependencies.store.visitorDuels.ownedDuels(hashVisitor(visitorId), [duelId]);
    if (!owned) throw new AppError('duel_not_found', 'no duel with this id');
    const streaming = () => new AppError('turn_in_progress', 'a turn is still streaming: erase the duel once it has ended');
    if (owned.streaming) throw streaming();
    // A follow-up may have started since: the erasure leaves such a duel, and says so.
    const erased = await this.erase([duelId]);
    if (erased === 0) throw streaming();
    return { erased };
  }

  /** Erases every duel of the visitor but those with a turn still streaming (erased by a later request once it has ended). */
  async eraseAll(visitorId: string): Promise<{ erased: number }> {
    // The population survey's answers go with the duels (docs/privacy.md#population-survey).
    await this.dependencies.store.surveyAnswers.erase(hashVisitor(visitorId));
    const owned = await this.dependencies.store.visitorDuels.ownedDuels(hashVisitor(visitorId), 'all');
    return { erased: await this.erase(owned.filter((duel) => !duel.streaming).map((duel) => duel.id)) };
  }

  private async erase(duelIds: readonly string[]): Promise<number> {
    const { store, runtime } = this.dependencies;
    let erased = 0;
    const salt = await store.visitorDuels.exportSalt();
    // What was made for publication names a conversation by its exported pair id (an HMAC of the duel id).
    const context = salt === undefined ? undefined : rowContext(salt, new Map());
    for (let start = 0; start < duelIds.length; start += ERASE_BATCH) {
      const batch = duelIds.slice(start, start + ERASE_BATCH);
      const pairIds = context
        ? batch.map((duelId) => {
            const { a, b } = context.sideIds(duelId);
            return `${a}-${b}`;
          })
        : [];
      const done = await store.transaction((repositories) =>
        repositories.visitorDuels.eraseDuels(batch, pairIds, runtime.now().toISOString()),
      );
      erased += done.length;
    }
    return erased;
  }
}

type Side = 'a' | 'b';

/** The store's rows as the visitor reads them: a failed turn's answers withheld, as in the arena; models only once voted. */
export function toMyDuels(rows: VisitorDuelRows, modelName: (modelId: string) => string): MyDuel[] {
  const byDuel = <T extends { duelId: string }>(items: readonly T[]) => {
    const grouped = new Map<string, T[]>();
    for (const item of items) grouped.set(item.duelId, [...(grouped.get(item.duelId) ?? []), item]);
    return (duelId: string) => grouped.get(duelId) ?? [];
  };
  const turnsOf = byDuel(rows.turns);
  const sidesOf = byDuel(rows.sides);
  const reactionsOf = byDuel(rows.reactions);
  const reportsOf = byDuel([...rows.reports].sort((x, y) => (x.createdAt < y.createdAt ? -1 : 1)));
  const votes = new Map(rows.votes.map((vote) => [vote.duelId, vote]));
  return rows.duels.map((duel) => {
    const sides = sidesOf(duel.id);
    const answer = (turn: number, status: string, side: Side) => {
      const found = status === 'failed' ? undefined : sides.find((row) => row.turn === turn && row.side === side);
      return { text: found?.text ?? '', reasoning: found?.reasoning || null };
    };
    const vote = votes.get(duel.id);
    return {
      id: duel.id,
      mode: duel.mode as MyDuel['mode'],
      status: duel.status as MyDuel['status'],
      locale: duel.locale,
      created_at: duel.createdAt,
      updated_at: duel.updatedAt,
      turns: turnsOf(duel.id)
        .sort((x, y) => x.turn - y.turn)
        .map((turn) => ({
          turn: turn.turn,
          prompt: turn.prompt,
          status: turn.status as MyDuel['turns'][number]['status'],
          started_at: turn.startedAt,
          a: answer(turn.turn, turn.status, 'a'),
          b: answer(turn.turn, turn.status, 'b'),
        })),
      reactions: reactionsOf(duel.id)
        .sort((x, y) => x.turn - y.turn || (x.side < y.side ? -1 : 1))
        .map((reaction) => ({
          turn: reaction.turn,
          side: reaction.side as Side,
          value: reaction.value as 'like' | 'dislike',
          tags: reaction.tags as MyDuel['reactions'][number]['tags'],
          comment: reaction.comment,
          created_at: reaction.createdAt,
        })),
      vote: vote ? toMyVote(vote) : null,
      reports: reportsOf(duel.id).map((report) => toMyReport(report, rows.reviewedAt.get(duel.id))),
      // Blind until the vote: the models of a duel not voted on (failed, or still open) are never named.
      models: vote ? { a: { id: duel.modelA, name: modelName(duel.modelA) }, b: { id: duel.modelB, name: modelName(duel.modelB) } } : null,
    };
  });
}

const toMyVote = (vote: VisitorVoteRow): NonNullable<MyDuel['vote']> => ({
  choice: vote.choice as NonNullable<MyDuel['vote']>['choice'],
  tags: { a: vote.tagsA, b: vote.tagsB } as NonNullable<MyDuel['vote']>['tags'],
  comments: { a: vote.commentA, b: vote.commentB },
  created_at: vote.createdAt,
});

/** A report is reviewed once a reviewer decided on its conversation after it was made. */
const toMyReport = (report: VisitorReportRow, reviewedAt: string | undefined): MyDuel['reports'][number] => ({
  category: report.category as MyDuel['reports'][number]['category'],
  reason: report.reason,
  turn: report.turn,
  side: report.side as 'a' | 'b' | null,
  created_at: report.createdAt,
  state: reviewedAt !== undefined && reviewedAt >= report.createdAt ? 'reviewed' : 'pending',
});
