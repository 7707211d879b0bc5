import type { Command } from 'commander';
import { VoteFileError, type VoteFileContents } from '../../adapters/vote-files';
import { RANKING_VARIANT_NAMES, RankingError, type Leaderboard, type LeaderboardRow, type VoteTable } from '../../domain/ranking';
import { rankVoteFiles, rankVoteTable, type RankVotesOptions } from '../../services/rank-votes';
import { CliUsageError, parseFlags, reportingUsageErrors } from '../cli-error';
import { leaderboardFlagsSchema, type LeaderboardFlags } from './compute-leaderboard-flags';

/** Where votes come from when no `--votes` file is given (the store, wired by the arena). */
export interface LeaderboardVoteSources {
  /** Reads the arena's stored votes as a vote table. */
  storeVotes?: (() => Promise<VoteTable>) | undefined;
  /** Reads the stored per-turn verdicts as votes, one cluster per duel (`--unit turn`). */
  storeTurnVerdicts?: (() => Promise<{ table: VoteTable; clusters: Int32Array }>) | undefined;
}

const VARIANTS = RANKING_VARIANT_NAMES;

function rankOptions(flags: LeaderboardFlags): RankVotesOptions {
  return {
    variant: flags.variant,
    style: flags.style,
    styleRule: flags.styleRule,
    bootstrapRounds: flags.bootstrap,
    seed: flags.seed,
    anchor: flags.anchor,
    includeFlagged: flags.includeFlagged,
  };
}

async function rank(
  flags: LeaderboardFlags,
  sources: LeaderboardVoteSources,
): Promise<{ board: Leaderboard; file: VoteFileContents | undefined }> {
  try {
    if (flags.unit === 'turn') return { board: await rankTurns(flags, sources), file: undefined };
    if (flags.votes !== undefined) {
      const { leaderboard, input } = await rankVoteFiles(flags.votes, rankOptions(flags));
      return { board: leaderboard, file: input };
    }
    if (sources.storeVotes) return { board: rankVoteTable(await sources.storeVotes(), rankOptions(flags)), file: undefined };
    throw new CliUsageError(
      '--votes FILE is required here (no store to read the votes from): a JSONL, .jsonl.gz, JSON array or Parquet vote file',
    );
  } catch (error) {
    if (error instanceof VoteFileError || error instanceof RankingError) throw new CliUsageError(error.message);
    throw error;
  }
}

/** `--unit turn`: each stored verdict a vote, intervals clustered by duel (docs/ranking.md#per-turn-verdicts). */
async function rankTurns(flags: LeaderboardFlags, sources: LeaderboardVoteSources): Promise<Leaderboard> {
  // Vote files carry one vote per duel and no turn: only the store holds per-turn verdicts.
  if (flags.votes !== undefined)
    throw new CliUsageError("--unit turn reads the store's per-turn verdicts: vote files have no turns (leave out --votes)");
  if ((flags.bootstrap ?? 0) > 0) throw new CliUsageError('--unit turn takes sandwich intervals clustered by duel: leave out --bootstrap');
  if (!sources.storeTurnVerdicts) throw new CliUsageError('--unit turn needs the store (DATABASE_URL)');
  const { table, clusters } = await sources.storeTurnVerdicts();
  return rankVoteTable(table, { ...rankOptions(flags), clusters });
}

const round = (value: number, digits = 6): number => {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
};

/** A row in the row shape of docs/api.md#leaderboard-row, plus tier, both-bad rate, component and both SEs. */
function apiRow(row: LeaderboardRow) {
  return {
    model: row.model,
    name: row.model,
    rating: round(row.rating),
    se: round(row.se),
    ci_low: round(row.ciLow),
    ci_high: round(row.ciHigh),
    rank: row.rank,
    rank_best: row.rankBest,
    rank_worst: row.rankWorst,
    n_battles: row.nBattles,
    wins: row.wins,
    losses: row.losses,
    ties: row.ties,
    both_bad: row.bothBad,
    win_rate: round(row.winRate),
    provisional: row.provisional,
    tier: row.tier,
    both_bad_rate: round(row.bothBadRate),
    component: row.component,
    se_sandwich: round(row.seSandwich),
    se_hessian: round(row.seHessian),
  };
}

function jsonReport(board: Leaderboard, file: VoteFileContents | undefined) {
  return {
    n_votes: board.nVotesRaw,
    n_votes_used: board.nVotesUsed,
    n_models: board.nModels,
    variant: board.variant,
    components: board.components,
    models: board.rows.map(apiRow),
    ...(board.style
      ? {
          style: {
            rule: board.style.rule,
            features: board.style.active,
            beta: board.style.beta,
            beta_points_per_sd: board.style.betaPointsPerSd,
            beta_se: board.style.betaSeSandwich,
            mean_d: board.style.meanD,
            std_d: board.style.stdD,
          },
        }
      : {}),
    requested_variant: board.requestedVariant,
    note: board.note,
    n_selfplay_dropped: board.nSelfPlayDropped,
    n_cells: board.nCells,
    mle_exists: board.mleExists,
    strong_components: board.strongComponents,
    provisional_models: board.provisionalModels,
    uncertainty: board.uncertainty,
    bootstrap: board.bootstrap,
    anchor: board.anchor,
    input: file
      ? { format: file.format, container: file.container, gzip: file.gzip, records: file.records, skipped: file.skipped }
      : { source: 'store' },
  };
}

function csvCell(value: string | number | boolean | null | undefined): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csvReport(board: Leaderboard): string {
  const rows = board.rows.map(apiRow);
  const header = Object.keys(apiRow(board.rows[0] ?? emptyRow()));
  const lines = [header.join(',')];
  for (const row of rows) lines.push(header.map((key) => csvCell(row[key as keyof typeof row])).join(','));
  return `${lines.join('\n')}\n`;
}

function emptyRow(): LeaderboardRow {
  return {
    model: '',
    rating: 0,
    se: 0,
    ciLow: 0,
    ciHigh: 0,
    rank: null,
    rankBest: null,
    rankWorst: null,
    tier: null,
    nBattles: 0,
    wins: 0,
    losses: 0,
    ties: 0,
    bothBad: 0,
    winRate: 0,
    bothBadRate: 0,
    provisional: false,
    component: 0,
    seSandwich: 0,
    seHessian: 0,
  };
}

function tableReport(board: Leaderboard): string {
  const several = board.components.length > 1;
  const header = ['rank', 'model', 'rating', '95% CI', 'rank range', 'tier', 'battles', 'win rate', 'both bad', ''];
  if (several) header.splice(2, 0, 'component');
  const body = board.rows.map((row) => [
    row.rank === null ? '–' : String(row.rank),
    row.model,
    row.rating.toFixed(1),
    `${row.ciLow.toFixed(1)} – ${row.ciHigh.toFixed(1)}`,
    row.rankBest === null ? '–' : `${row.rankBest}–${row.rankWorst}`,
    row.tier === null ? '–' : String(row.tier),
    String(row.nBattles),
    `${(100 * row.winRate).toFixed(1)} %`,
    `${(100 * row.bothBadRate).toFixed(1)} %`,
    row.provisional ? 'provisional (not enough data)' : '',
  ]);
  if (several) body.forEach((cells, index) => cells.splice(2, 0, String(board.rows[index]!.component + 1)));
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const numeric = new Set(several ? [0, 2, 3, 6, 7, 8, 9] : [0, 2, 5, 6, 7, 8]);
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (numeric.has(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  const summary = [
    `variant ${board.variant ?? 'none'} · ${board.nVotesUsed} votes (${board.nSelfPlayDropped} self-play dropped) · ${board.nModels} models · ${board.components.length} component(s) · intervals: ${board.uncertainty}${board.bootstrap ? ` (${board.bootstrap.rounds} rounds)` : ''}`,
  ];
  if (board.anchor) summary.push(`anchor: ${board.anchor.model} = ${board.anchor.rating}`);
  if (board.note) summary.push(`note: ${board.note}`);
  if (several) summary.push('ratings are comparable only within a component (each is centred on 1000)');
  if (board.style) {
    const features = Object.entries(board.style.betaPointsPerSd).map(([name, value]) => `${name} ${value.toFixed(1)}`);
    summary.push(`style (rating points per SD): ${features.join(', ')}`);
  }
  return `${[...summary, '', line(header), ...body.map(line)].join('\n')}\n`;
}

/**
 * `agora leaderboard`: ratings from a vote file (docs/api.md#command-line-outputs, docs/ranking.md). Without
 * `--votes` it reads `sources.storeVotes`, or explains that the store is not wired yet.
 */
export function registerLeaderboardCommand(program: Command, sources: LeaderboardVoteSources = {}): void {
  reportingUsageErrors(program.command('leaderboard'))
    .description(
      'Bradley–Terry leaderboard from a vote file (JSONL, .jsonl.gz, JSON array, Parquet), or from the store (DATABASE_URL) without --votes',
    )
    .option('--votes <file...>', 'vote files, ranked together: Agora rows, ranking fixtures, FastChat battles or compar:IA votes')
    .option('--style', 'style control (style_fastchat unless --variant says otherwise)')
    .option('--variant <name>', `estimator: ${VARIANTS.join(' | ')} (default bt_mle, or bt_ridge when no finite MLE)`)
    .option('--bootstrap <N>', 'bootstrap rounds for the intervals (default 0: sandwich intervals)')
    .option('--seed <N>', 'seed of the bootstrap (default 0)')
    .option('--format <format>', 'json | csv | table (default table)')
    .option('--anchor <MODEL=RATING>', 'shift ratings so that MODEL sits at RATING (FastChat style)')
    .option('--style-rule <rule>', 'style feature rule: fastchat (a−b)/(a+b+1) (default) or compar (a−b)/(a+b)')
    .option('--include-flagged', 'keep votes flagged identity_leak or abuse (left out by default)')
    .option('--unit <unit>', "duel (default: one vote per duel) | turn (the store's per-turn verdicts, intervals clustered by duel)")
    .action(async (raw: Record<string, unknown>) => {
      const flags = parseFlags(leaderboardFlagsSchema, raw);
      const { board, file } = await rank(flags, sources);
      const format = flags.format ?? 'table';
      if (format === 'json') process.stdout.write(`${JSON.stringify(jsonReport(board, file))}\n`);
      else if (format === 'csv') process.stdout.write(csvReport(board));
      else process.stdout.write(tableReport(board));
    });
}
