import type { Config } from '../config/config';
import { openDatabase } from '../db/dialect';
import { migrateToLatest } from '../db/migrate';
import { type Store, createStore } from '../db/unit-of-work';
import type { VoteTable } from '../domain/ranking';
import { storeTurnVerdictTable, storeVoteTable } from '../services/rank-votes';
import type { InfluenceReport } from '../domain/ranking/influence';
import { type InfluenceGrouping, storeInfluence } from '../services/rank-influence';

/** The store of `DATABASE_URL`, migrated: what the store commands of the CLI work on. */
export async function openStore(config: Pick<Config, 'database'>): Promise<Store> {
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return createStore(db);
}

/** The arena's stored votes as a ranking vote table: `agora leaderboard` without `--votes`. */
export async function loadStoreVoteTable(config: Config): Promise<VoteTable> {
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await storeVoteTable(createStore(db), config.integrity, { customModeOnMainBoard: config.leaderboard.customModeOnMainBoard });
  } finally {
    await db.destroy();
  }
}

/** The stored per-turn verdicts as votes clustered by duel: `agora leaderboard --unit turn`. */
export async function loadStoreTurnVerdictTable(config: Config): Promise<{ table: VoteTable; clusters: Int32Array }> {
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await storeTurnVerdictTable(createStore(db));
  } finally {
    await db.destroy();
  }
}

/** Rank influence on the store's main board: `agora influence`. */
export async function loadStoreInfluence(
  config: Config,
  by: InfluenceGrouping,
  top: number,
  includeFlagged = false,
): Promise<InfluenceReport> {
  const db = openDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await storeInfluence(createStore(db), by, {
      top,
      integrity: config.integrity,
      customModeOnMainBoard: config.leaderboard.customModeOnMainBoard,
      includeFlagged,
    });
  } finally {
    await db.destroy();
  }
}
