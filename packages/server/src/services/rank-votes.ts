import { DEFAULT_INTEGRITY_RULES, type IntegrityRules } from '../domain/arena/vote-integrity';
import { integrityOfVotes, ratingsOfBoard } from './vote-integrity';
import {
  concatVoteTables,
  computeLeaderboard,
  createSeededRandom,
  type Leaderboard,
  type RankingVariant,
  type StyleRule,
  type VoteTable,
} from '../domain/ranking';
import { readVoteFile, type VoteFileContents } from '../adapters/vote-files';
import type { Store } from '../db/unit-of-work';
import { mainBoardTable } from './main-board-table';
import { viewKey } from '../domain/ranking/leaderboard-views';
import { turnVerdictTable } from '../domain/ranking/turn-verdict-votes';

/** How to rank (the `agora leaderboard` flags). */
export interface RankVotesOptions {
  variant?: RankingVariant | undefined;
  style?: boolean | undefined;
  styleRule?: StyleRule | undefined;
  /** Bootstrap rounds (0 or absent: sandwich intervals) and their seed (default 0). */
  bootstrapRounds?: number | undefined;
  seed?: number | undefined;
  anchor?: { model: string; rating: number } | undefined;
  /** Keep votes flagged identity_leak or abuse. */
  includeFlagged?: boolean | undefined;
  /** A cluster number per vote (the turn unit: one per duel); intervals then sum the score per cluster. */
  clusters?: Int32Array | undefined;
}

/** A leaderboard and, for a file, what was read. */
export interface RankedVotes {
  leaderboard: Leaderboard;
  /** Undefined when the votes did not come from a file. */
  input: VoteFileContents | undefined;
}

function wantsStyle(options: RankVotesOptions): boolean {
  return options.style === true || (options.variant?.startsWith('style_') ?? false);
}

/**
 * Ranks a vote table (docs/ranking.md). The bootstrap gets a generator seeded with `seed`, so a run is
 * reproducible.
 *
 * @throws RankingError when the options cannot be met (unknown anchor, no style counts).
 */
export function rankVoteTable(table: VoteTable, options: RankVotesOptions = {}): Leaderboard {
  const rounds = options.bootstrapRounds ?? 0;
  return computeLeaderboard(table, {
    variant: options.variant,
    style: wantsStyle(options),
    styleRule: options.styleRule,
    anchor: options.anchor,
    bootstrap: rounds > 0 ? { rounds, random: createSeededRandom(options.seed ?? 0) } : undefined,
    weighting: options.clusters ? { cluster: options.clusters } : undefined,
  });
}

/**
 * Reads vote files (one, or an export's file per language) and ranks their votes together. Style
 * counts are taken from the conversation text only when style control is asked for.
 *
 * @throws VoteFileError for an unreadable file or a bad row (file and line named).
 * @throws RankingError when the options cannot be met.
 */
export async function rankVoteFiles(paths: readonly string[], options: RankVotesOptions = {}): Promise<RankedVotes> {
  const files: VoteFileContents[] = [];
  const style = wantsStyle(options);
  // without style control the counts are checked but not kept: 40 MB less on 2.5M votes
  for (const path of paths)
    files.push(
      await readVoteFile(path, { excludeFlags: options.includeFlagged ? [] : undefined, styleFromText: style, styleCounts: style }),
    );
  const skipped = { ...files[0]!.skipped };
  for (const file of files.slice(1))
    for (const reason of Object.keys(skipped) as (keyof typeof skipped)[]) skipped[reason] += file.skipped[reason];
  const input: VoteFileContents = {
    ...files[0]!,
    // one file (the usual case) is ranked as read: a copy of 2.5M votes costs 0.2 s and 60 MB
    table: files.length === 1 ? files[0]!.table : concatVoteTables(files.map((file) => file.table)),
    gzip: files.some((file) => file.gzip),
    records: files.reduce((sum, file) => sum + file.records, 0),
    skipped,
  };
  return { leaderboard: rankVoteTable(input.table, options), input };
}

/**
 * The arena's stored votes as a ranking vote table (`agora leaderboard` without `--votes`): the
 * rankable ones, as the live leaderboard's main board counts them (the arena's custom-mode votes left
 * out unless `customModeOnMainBoard`).
 */
export async function storeVoteTable(
  store: Store,
  integrity: IntegrityRules = DEFAULT_INTEGRITY_RULES,
  options: { customModeOnMainBoard?: boolean } = {},
): Promise<VoteTable> {
  const records = await store.feedback.listRankingVotes();
  // The campaign rule judges against the stored main board, as the live leaderboard does.
  const stored = await store.leaderboards.latestSnapshots();
  const ratings = ratingsOfBoard(stored.find((snapshot) => snapshot.view === viewKey({ style: 'plain' }))?.body);
  return mainBoardTable(records, integrityOfVotes(records, integrity, ratings), options);
}

/**
 * The stored per-turn verdicts as votes clustered by duel (`agora leaderboard --unit turn`,
 * docs/ranking.md#per-turn-verdicts).
 */
export async function storeTurnVerdictTable(store: Store): Promise<{ table: VoteTable; clusters: Int32Array }> {
  return turnVerdictTable(await store.turnVerdicts.listRankingVerdicts());
}
