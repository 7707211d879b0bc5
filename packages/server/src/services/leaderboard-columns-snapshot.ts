import type { ColumnsSnapshotRead, ColumnsSnapshotStorage } from '../adapters/ranking-columns-snapshot';
import { RankingVoteColumns } from '../domain/ranking/vote-columns';
import type { Runtime } from './ports/runtime';

/** The votes a refresh keeps for the next one, and from when to read what changed (leaderboard.service.ts). */
export interface KeptVotes {
  columns: RankingVoteColumns;
  /** The store's ranking epoch when they were read in full. */
  epoch: number;
  /** When the last read started (the runtime's clock, ms): the next one reads changes since then, less the margin. */
  readFrom: number;
  loadedAt: number;
  /** Distinct duels whose 64-bit keys collided in the full read (domain/ranking/dense-ids.ts): expected 0. */
  merged: number;
  /** How the last refresh got them: every vote read, or only the changes. */
  read: 'everything' | 'changes';
}

/** Where the snapshot lives and how often it is written again (docs/operations.md#leaderboard-snapshot). */
export interface ColumnsSnapshotSettings {
  /** A file beside an SQLite store, rows of a PostgreSQL one (leaderboard-columns-table.ts). */
  storage: ColumnsSnapshotStorage;
  /** Written again at most this often after a refresh; always after a refresh that read every vote. */
  everyMs: number;
}

/** The lines the snapshot writes (pino's logger has this shape). */
export interface SnapshotLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * The kept vote columns on disk, so that a restart's first refresh reads only the changes since the
 * snapshot: loaded once, at the first refresh, when it is sound and of the store's ranking epoch;
 * anything else is logged and ignored (the refresh reads every vote and a new snapshot follows).
 */
export class KeptColumnsSnapshot {
  private tried = false;
  /** The full read the file holds (its loadedAt), and when it was written (ms). */
  private saved: { loadedAt: number; at: number } | undefined;

  constructor(
    private readonly settings: ColumnsSnapshotSettings,
    private readonly runtime: Pick<Runtime, 'now'>,
    private readonly log: SnapshotLog,
  ) {}

  /**
   * The snapshot's kept votes the first time it is asked (undefined after: the process keeps its own).
   * `storeVotesBefore` counts the store's votes cast before a time: a snapshot holding more votes from
   * before its read than the store has (a restored backup, another store's file) is not trusted.
   */
  async loadOnce(epoch: number, storeVotesBefore: (before: string) => Promise<number>): Promise<KeptVotes | undefined> {
    if (this.tried) return undefined;
    this.tried = true;
    const started = this.runtime.now().getTime();
    const path = this.settings.storage.where;
    let read: ColumnsSnapshotRead | undefined;
    try {
      read = await this.settings.storage.read();
    } catch (error) {
      this.log.warn({ path, err: error }, 'leaderboard snapshot unreadable, every vote is read instead');
      return undefined;
    }
    if (!read) return undefined;
    const rejected =
      'rejected' in read ? read.rejected : read.header.epoch !== epoch ? `of epoch ${read.header.epoch}, the store is at ${epoch}` : null;
    if (rejected !== null || 'rejected' in read) {
      this.log.warn({ path, reason: rejected }, 'leaderboard snapshot ignored, every vote is read instead');
      return undefined;
    }
    let columns: RankingVoteColumns;
    try {
      columns = RankingVoteColumns.fromState(read.state);
    } catch (error) {
      this.log.warn({ path, reason: (error as Error).message }, 'leaderboard snapshot ignored, every vote is read instead');
      return undefined;
    }
    const { readFrom, loadedAt, merged } = read.header;
    // Votes erased since the snapshot make the store hold fewer too: a full read then, which is always right.
    const held = columns.countCastBefore(readFrom) - columns.erased + merged;
    const stored = await storeVotesBefore(new Date(readFrom).toISOString());
    if (held > stored) {
      this.log.warn(
        { path, reason: `holds ${held} votes cast before it was read, the store ${stored}` },
        'leaderboard snapshot ignored, every vote is read instead',
      );
      return undefined;
    }
    this.saved = { loadedAt, at: started };
    const ms = this.runtime.now().getTime() - started;
    this.log.info({ path, votes: columns.length, ms }, 'leaderboard snapshot loaded: the first refresh reads the changes since it');
    return { columns, epoch, readFrom, loadedAt, merged, read: 'changes' };
  }

  /** Whether the kept votes should be written: a full read not yet on disk, or the interval passed. */
  due(kept: KeptVotes): boolean {
    return !this.saved || this.saved.loadedAt !== kept.loadedAt || this.runtime.now().getTime() - this.saved.at >= this.settings.everyMs;
  }

  /** Writes the kept votes (nothing may change them meanwhile: the caller holds the refreshes back). */
  async save(kept: KeptVotes): Promise<boolean> {
    const started = this.runtime.now().getTime();
    const { epoch, readFrom, loadedAt, merged } = kept;
    const path = this.settings.storage.where;
    const written = await this.settings.storage.write({ epoch, readFrom, loadedAt, merged }, kept.columns.toState());
    this.saved = { loadedAt, at: started };
    const ms = this.runtime.now().getTime() - started;
    if (written) this.log.info({ path, votes: kept.columns.length, ms }, 'leaderboard snapshot written');
    else this.log.info({ path }, 'leaderboard snapshot left alone: the stored one read the votes later');
    return written;
  }
}
