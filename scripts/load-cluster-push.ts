/**
 * `npm run load -- --scenario cluster-push [--store sqlite|postgres] [--seed 1] [--visitors 120]
 * [--duels-per-visitor 3] [--cookies 50] [--addresses 10] [--push-min 5] [--target miravel-24b]
 * [--prompt-dedup on|off]`:
 * one prompt cluster pushed from many cookies (issue 34's acceptance: it moves no rank), on a real
 * arena over HTTP (packages/server/test/test-arena.ts, the fake upstream behind it) with the
 * loopback as a trusted proxy, so that each client has its address (X-Forwarded-For), and prompt
 * de-duplication on, as in production (AGORA_LEADERBOARD_PROMPT_DEDUP's default; the test harness
 * turns it off).
 *
 * Honest visitors first: each from its own address, with its own cookie, plays about
 * `--duels-per-visitor` random duels, each on a prompt of its own (random words, so that no two
 * share a cluster), at human pace on a clock the script moves, and votes as Bradley–Terry draws from
 * hidden true strengths (a tie one time in ten). Once post-processing has given every conversation
 * its prompt cluster, the main board of these votes is the honest board. Then `--cookies` fresh
 * cookies, spread over `--addresses` addresses in as many /24s, within `--push-min` minutes, each
 * paste a near-duplicate variant of one prompt (case, punctuation, a word changed, zero-width
 * characters), start random duels until the target is drawn (the new-duel button), and vote for it.
 *
 * It prints the target's rank with the push counted naively (every vote fitted offline, no rule and
 * no de-duplication: the ranking library on the store's votes), its rank on the live board (the
 * API, after post-processing and a refresh), the honest board's ranks, and how many of the push's
 * votes each rule flagged (the admin API). It exits 1 unless the live board ranks every model as the
 * honest board does, the variants fell in one cluster, and the push counted naively does move the
 * target (else the run shows nothing); 2 on a usage error.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { LeaderboardBody } from '@agora/contract';
import { loadConfig } from '../packages/server/src/config/config';
import { INTEGRITY_FLAG_BIT, type IntegrityRules, integrityFlagBits } from '../packages/server/src/domain/arena/vote-integrity';
import { OWN_VIEW_MODES, computeViewsFromColumns, countedVotes, toViewVote } from '../packages/server/src/domain/ranking/leaderboard-views';
import { withoutPromptClusters } from '../packages/server/src/domain/ranking/prompt-cluster-cap';
import { RankingVoteColumns } from '../packages/server/src/domain/ranking/vote-columns';
import { voteFacts } from '../packages/server/src/services/vote-facts';
import { TestClock, campaignEnvironment, flaggedVotes, mainBoard, playDuel, voteOn } from '../packages/server/test/paced-campaign';
import { seededRandom } from '../packages/server/test/seeded-random';
import { ClientAt, type TestArena, TEST_MODELS, startTestArena, until } from '../packages/server/test/test-arena';
import { DIALECTS } from '../packages/server/test/test-db';
import { describeError, printChecks } from './script-checks';
import { PUSHED_PROMPT, honestPrompt, pushedVariant, trueStrength } from './load-cluster-push-data';

const MINUTE_MS = 60_000;
const READ_MS = [8_000, 40_000] as const;
const THINK_MS = [10_000, 60_000] as const;
/** Random duels a pushing cookie starts at most before the target is drawn. */
const MAX_TRIES = 40;

export interface ClusterPushOptions {
  store: 'sqlite' | 'postgres';
  seed: number;
  visitors: number;
  duelsPerVisitor: number;
  cookies: number;
  addresses: number;
  pushMs: number;
  target: string;
  /** AGORA_LEADERBOARD_PROMPT_DEDUP: on as in production; off shows what the push does without it. */
  promptDedup: boolean;
}

const USAGE =
  'usage: npm run load -- --scenario cluster-push [--store sqlite|postgres] [--seed 1] [--visitors 120] [--duels-per-visitor 3]\n' +
  '       [--cookies 50] [--addresses 10] [--push-min 5] [--target miravel-24b] [--prompt-dedup on|off]\n';

/** The options, or a usage error's message. */
function clusterPushOptions(argv: string[]): ClusterPushOptions | string {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string' },
      store: { type: 'string', default: 'sqlite' },
      seed: { type: 'string', default: '1' },
      visitors: { type: 'string', default: '120' },
      'duels-per-visitor': { type: 'string', default: '3' },
      cookies: { type: 'string', default: '50' },
      addresses: { type: 'string', default: '10' },
      'push-min': { type: 'string', default: '5' },
      target: { type: 'string', default: 'miravel-24b' },
      'prompt-dedup': { type: 'string', default: 'on' },
    },
    strict: true,
  });
  const number = (name: string, text: string | undefined, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max) throw new RangeError(`--${name} must be a number in [${min}, ${max}]`);
    return value;
  };
  const { store, target, 'prompt-dedup': promptDedup } = values;
  if (store !== 'sqlite' && store !== 'postgres') return '--store must be sqlite or postgres';
  if (promptDedup !== 'on' && promptDedup !== 'off') return '--prompt-dedup must be on or off';
  if (!TEST_MODELS.some((model) => model.id === target))
    return `--target must be one of ${TEST_MODELS.map((model) => model.id).join(', ')}`;
  try {
    return {
      store,
      target,
      promptDedup: promptDedup === 'on',
      seed: Math.floor(number('seed', values.seed, 0, 2 ** 32 - 1)),
      visitors: Math.floor(number('visitors', values.visitors, 1, 10_000)),
      duelsPerVisitor: Math.floor(number('duels-per-visitor', values['duels-per-visitor'], 1, 20)),
      cookies: Math.floor(number('cookies', values.cookies, 1, 1_000)),
      addresses: Math.floor(number('addresses', values.addresses, 1, 250)),
      pushMs: number('push-min', values['push-min'], 0.1, 24 * 60) * MINUTE_MS,
    };
  } catch (error) {
    return (error as Error).message;
  }
}

/** The honest visitors, one after the other, each on its own address and cookie; their voted duels. */
async function honestVotes(harness: TestArena, clock: TestClock, options: ClusterPushOptions): Promise<string[]> {
  const random = seededRandom(options.seed);
  const between = ([low, high]: readonly [number, number]) => low + random() * (high - low);
  const voted: string[] = [];
  for (let visitor = 0; visitor < options.visitors; visitor++) {
    const client = new ClientAt(harness.baseUrl, `10.${visitor >> 8}.${visitor & 255}.1`);
    for (let duel = 0; duel < options.duelsPerVisitor; duel++) {
      clock.aheadMs += between(THINK_MS);
      const id = await playDuel(client, { mode: 'random', prompt: honestPrompt(random) });
      clock.aheadMs += between(READ_MS);
      const choose = (modelA: string, modelB: string) => {
        if (random() < 0.1) return 'tie' as const;
        return random() < 1 / (1 + 10 ** ((trueStrength(modelB) - trueStrength(modelA)) / 400)) ? ('a' as const) : ('b' as const);
      };
      if (await voteOn(harness, client, id, choose)) voted.push(id);
    }
  }
  return voted;
}

/** The push: each cookie pastes its variant, starts random duels until the target is drawn, and votes for it; the voted duels. */
async function pushVotes(harness: TestArena, clock: TestClock, options: ClusterPushOptions): Promise<string[]> {
  const voted: string[] = [];
  const spacingMs = options.pushMs / options.cookies;
  for (let cookie = 0; cookie < options.cookies; cookie++) {
    const group = cookie % options.addresses;
    const client = new ClientAt(harness.baseUrl, `198.${18 + (group >> 8)}.${group & 255}.7`);
    const variant = pushedVariant(cookie);
    const start = clock.aheadMs;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const id = await playDuel(client, { mode: 'random', prompt: variant });
      // Reading as long as an honest visitor does: too_fast misses the push.
      clock.aheadMs += READ_MS[0] + ((cookie * 7 + tries) % 10) * 1_000;
      const chosen = await voteOn(harness, client, id, (modelA, modelB) => {
        if (modelA !== options.target && modelB !== options.target) return undefined;
        return modelA === options.target ? 'a' : 'b';
      });
      if (chosen) {
        voted.push(id);
        break;
      }
    }
    clock.aheadMs = Math.max(clock.aheadMs, start + spacingMs);
  }
  return voted;
}

/** Each duel's prompt cluster, once post-processing has given them all one. */
async function clustersOf(harness: TestArena, duels: readonly string[]): Promise<Map<string, string>> {
  const clusters = new Map<string, string>();
  for (const id of duels) {
    const found = await until(
      () => harness.arena.store.annotations.find(id),
      (annotation) => annotation?.status === 'done' && typeof annotation.promptCluster === 'string',
      120_000,
    );
    clusters.set(id, found!.promptCluster!);
  }
  return clusters;
}

/** Every stored vote in the live board's columns, and each duel's row. */
async function storedColumns(harness: TestArena): Promise<{ columns: RankingVoteColumns; rowOf: Map<string, number> }> {
  const columns = new RankingVoteColumns();
  const rowOf = new Map<string, number>();
  for await (const page of harness.arena.store.feedback.rankingVotePages(2_000))
    for (const record of page) {
      const row = columns.length;
      if (columns.put({ view: toViewVote(record), facts: voteFacts(record) }, record.duelId) === 'added') rowOf.set(record.duelId, row);
    }
  return { columns, rowOf };
}

/** The main board (plain) fitted offline on every stored vote: no integrity rule, no de-duplication, no cap. */
function naiveBoard(columns: RankingVoteColumns) {
  const view = withoutPromptClusters(columns.view());
  const main = { key: 'overall|plain', style: 'plain', language: null, mode: null, category: null, ownViewModes: OWN_VIEW_MODES } as const;
  return computeViewsFromColumns(view, countedVotes(view, new Uint8Array(view.length)), [main]).get(main.key)!;
}

/**
 * The duels of `duels` that cluster_push flags, as the board's refresh judges them (the admin API's
 * list judges votes without their prompt clusters, so it never shows this rule).
 */
function clusterPushed(
  stored: Awaited<ReturnType<typeof storedColumns>>,
  rules: IntegrityRules,
  promptDedup: boolean,
  duels: readonly string[],
): number {
  // De-duplication off, the board ignores prompt clusters (cluster_push included).
  const view = promptDedup ? stored.columns.view() : withoutPromptClusters(stored.columns.view());
  const bits = integrityFlagBits(view, rules);
  return duels.filter((id) => (bits[stored.rowOf.get(id) ?? -1]! & INTEGRITY_FLAG_BIT.cluster_push) !== 0).length;
}

const ranksOf = (board: LeaderboardBody) => board.models.map((row) => `${row.model}:${row.rank}`).join(' ');
const boardLine = (board: LeaderboardBody) =>
  board.models.map((row) => `${row.rank ?? '-'}. ${row.model} ${row.rating.toFixed(0)}`).join(', ');

interface Observed {
  honest: LeaderboardBody;
  live: LeaderboardBody;
  naive: ReturnType<typeof naiveBoard>;
  /** The push's votes cluster_push flags. */
  pushFlagged: number;
  honestDuels: string[];
  pushDuels: string[];
  pushClusters: number;
  honestClusters: number;
  flags: Map<string, string[]>;
}

/** How many of `duels` carry each flag, and how many carry any. */
function flagCounts(duels: readonly string[], flags: ReadonlyMap<string, string[]>): { flagged: number; byRule: string } {
  const byRule = new Map<string, number>();
  let flagged = 0;
  for (const id of duels) {
    const found = flags.get(id) ?? [];
    if (found.length > 0) flagged++;
    for (const flag of found) byRule.set(flag, (byRule.get(flag) ?? 0) + 1);
  }
  return { flagged, byRule: [...byRule].map(([rule, count]) => `${rule} ${count}`).join(', ') || 'none' };
}

function report(options: ClusterPushOptions, observed: Observed, timing: string): number {
  const { honest, live, naive } = observed;
  const rankOn = (board: LeaderboardBody) => board.models.find((row) => row.model === options.target)?.rank ?? null;
  const naiveRank = naive.rows.find((row) => row.model === options.target)?.rank ?? null;
  const push = flagCounts(observed.pushDuels, observed.flags);
  const honestFlags = flagCounts(observed.honestDuels, observed.flags);
  const lines = [
    `load-cluster-push: store ${options.store}, seed ${options.seed}, prompt de-duplication ${options.promptDedup ? 'on' : 'off'}, ${options.visitors} honest visitors (${observed.honestDuels.length} votes, ${observed.honestClusters} prompt clusters); ` +
      `push: ${observed.pushDuels.length} votes from ${options.cookies} cookies on ${options.addresses} addresses within ${options.pushMs / MINUTE_MS} min, for ${options.target}; ${timing}`,
    `pushed prompt: ${JSON.stringify(PUSHED_PROMPT)}; its ${observed.pushDuels.length} variants fell in ${observed.pushClusters} cluster(s)`,
    `honest board (${honest.n_votes} votes): ${boardLine(honest)}`,
    `live board after the push (${live.n_votes} votes counted): ${boardLine(live)}`,
    `counted naively (every vote, offline fit, no rule, no de-duplication; ${naive.rows.length} models): ${naive.rows
      .map((row) => `${row.rank}. ${row.model}`)
      .join(', ')}`,
    `target ${options.target}: rank ${rankOn(honest)} on the honest board, ${naiveRank} counted naively, ${rankOn(live)} on the live board`,
    `push votes flagged by the admin API's list: ${push.flagged} of ${observed.pushDuels.length} (${push.byRule}); cluster_push (as the refresh judges) ${observed.pushFlagged}; honest votes flagged: ${honestFlags.flagged} (${honestFlags.byRule})`,
    'checks:',
  ];
  return printChecks('load-cluster-push', lines, [
    [`the ${observed.pushDuels.length} variants fell in one prompt cluster`, observed.pushClusters === 1],
    [
      `counted naively, the push moves the target (rank ${rankOn(honest)} → ${naiveRank}): else this run shows nothing`,
      naiveRank !== rankOn(honest),
    ],
    [`no rank on the live board differs from the honest board's`, ranksOf(live) === ranksOf(honest)],
  ]);
}

async function runClusterPush(options: ClusterPushOptions): Promise<number> {
  const dialect = DIALECTS.find((candidate) => candidate.name === options.store);
  if (!dialect) throw new Error('--store postgres needs TEST_DATABASE_URL: export TEST_DATABASE_URL=$(bash scripts/postgres.sh)');
  const started = performance.now();
  const clock = new TestClock();
  // De-duplication on as in production (its default; the harness turns it off), clusters assigned promptly.
  const environment = {
    ...campaignEnvironment(false),
    AGORA_LEADERBOARD_PROMPT_DEDUP: options.promptDedup ? '1' : '0',
    AGORA_POSTPROCESS_EVERY_S: '0.2',
  };
  const harness = await startTestArena(dialect, { runtime: clock.runtime, environment });
  try {
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const honestDuels = await honestVotes(harness, clock, options);
    const honestClusters = new Set((await clustersOf(harness, honestDuels)).values()).size;
    const honest = await mainBoard(harness);
    clock.aheadMs += 10 * MINUTE_MS;
    const pushDuels = await pushVotes(harness, clock, options);
    const pushClusters = new Set((await clustersOf(harness, pushDuels)).values()).size;
    const live = await mainBoard(harness);
    const stored = await storedColumns(harness);
    const pushFlagged = clusterPushed(
      stored,
      loadConfig({ ...environment, DATABASE_URL: 'sqlite::memory:' }).integrity,
      options.promptDedup,
      pushDuels,
    );
    const observed = { honest, live, naive: naiveBoard(stored.columns), pushFlagged, honestDuels, pushDuels, pushClusters, honestClusters };
    const timing = `${(clock.aheadMs / MINUTE_MS).toFixed(0)} min on the arena's clock in ${((performance.now() - started) / 1000).toFixed(0)} s`;
    return report(options, { ...observed, flags: await flaggedVotes(harness) }, timing);
  } finally {
    await harness.close();
  }
}

/** The cluster-push scenario of `npm run load`, given the command line's arguments: its exit code (2 on a usage error). */
export async function runClusterPushScenario(argv: string[]): Promise<number> {
  let options: ClusterPushOptions | string;
  try {
    options = clusterPushOptions(argv);
  } catch (error) {
    options = (error as Error).message;
  }
  if (typeof options === 'string') {
    process.stderr.write(`load-cluster-push: ${options}\n${USAGE}`);
    return 2;
  }
  try {
    return await runClusterPush(options);
  } catch (error) {
    process.stderr.write(`load-cluster-push: ${describeError(error)}\n`);
    return 1;
  }
}
