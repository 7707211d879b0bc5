import type { LeaderboardBody } from '@agora/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../database';

export interface LeaderboardSnapshotRecord {
  id: string;
  view: string;
  generatedAt: string;
  nVotes: number;
  /** The board as the API serves it; stored as JSON. */
  body: LeaderboardBody;
}

/** Leaderboard snapshots: every refresh is kept, so that a model's history can be plotted. */
export class LeaderboardRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertSnapshots(snapshots: readonly LeaderboardSnapshotRecord[]): Promise<void> {
    if (snapshots.length === 0) return;
    await this.db
      .insertInto('leaderboard_snapshots')
      .values(
        snapshots.map((snapshot) => ({
          id: snapshot.id,
          view: snapshot.view,
          generated_at: snapshot.generatedAt,
          n_votes: snapshot.nVotes,
          body: JSON.stringify(snapshot.body),
        })),
      )
      .execute();
  }

  /** The latest snapshot of every view (one query; views are few). */
  async latestSnapshots(): Promise<LeaderboardSnapshotRecord[]> {
    const latest = this.db
      .selectFrom('leaderboard_snapshots')
      .select(['view', (eb) => eb.fn.max('generated_at').as('generated_at')])
      .groupBy('view')
      .as('latest');
    const rows = await this.db
      .selectFrom('leaderboard_snapshots')
      .innerJoin(latest, (join) =>
        join
          .onRef('latest.view', '=', 'leaderboard_snapshots.view')
          .onRef('latest.generated_at', '=', 'leaderboard_snapshots.generated_at'),
      )
      .select([
        'leaderboard_snapshots.id',
        'leaderboard_snapshots.view',
        'leaderboard_snapshots.generated_at',
        'leaderboard_snapshots.n_votes',
        'leaderboard_snapshots.body',
      ])
      .execute();
    return rows.map((row) => ({
      id: row.id,
      view: row.view,
      generatedAt: row.generated_at,
      nVotes: row.n_votes,
      body: JSON.parse(row.body) as LeaderboardBody,
    }));
  }

  /** Every snapshot of one view, oldest first, for history plots. */
  async snapshotsOfView(view: string, limit: number): Promise<LeaderboardSnapshotRecord[]> {
    const rows = await this.db
      .selectFrom('leaderboard_snapshots')
      .selectAll()
      .where('view', '=', view)
      .orderBy('generated_at', 'desc')
      .limit(limit)
      .execute();
    return rows.reverse().map((row) => ({
      id: row.id,
      view: row.view,
      generatedAt: row.generated_at,
      nVotes: row.n_votes,
      body: JSON.parse(row.body) as LeaderboardBody,
    }));
  }
}
