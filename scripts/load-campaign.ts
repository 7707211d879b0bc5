/**
 * `npm run load -- --scenario campaign [--store sqlite|postgres] [--seed 1] [--visitors 300]
 * [--campaign-mode custom|random] [--custom-on-main]`: the red team's paced campaign of issue 31
 * among honest visitors, on a real arena over HTTP (packages/server/test/test-arena.ts, the fake
 * upstream behind it) with the loopback as a trusted proxy, so that each client has its address
 * (X-Forwarded-For).
 *
 * Each model has a hidden true strength. Honest visitors arrive over `--session-min` minutes, each
 * from its own address in one of `--address-groups` /24s (chance puts some together, as a campus
 * would), with its own cookie, and play about `--duels-per-visitor` random duels at human pace
 * (8 to 40 s of reading, 10 to 60 s before the next prompt); each vote is a tie `--tie-rate` of the
 * time, else drawn from Bradley–Terry with the true strengths. At `--campaign-start-min` the
 * campaign starts from one address, a fresh cookie per duel: custom mode naming the target (or,
 * with `--campaign-mode random`, random pairs, voting only when the target is in the duel), a vote
 * 4.5 s after the answers end (`--campaign-read-s`; 2.1 s before the too_fast rule read the answers' length), at most 55 votes a minute, every 20th vote against the target, 100
 * votes (packages/server/test/paced-campaign.ts, as vote-campaign.test.ts runs it). The arena's
 * clock is one the script moves, from event to event in time order, so the pace costs no wall time.
 *
 * It prints the target's rating and rank on the main board before and after the campaign, the
 * change and the interval's half-width (the target's on the board before), the campaign's votes
 * flagged by rule (the admin API's flags), and the honest visitors' flag rate. Honest visitors vote
 * during the campaign too, so the campaign's own effect is measured on the board after it against
 * the same board with the campaign's votes excluded (the admin API's review). It exits 1 unless
 * that effect on the target is less than the half-width, no rank differs between the two boards,
 * and at most 1 % of the honest votes are flagged (2 on a usage error).
 *
 * The fake upstream, the pairs the arena draws and its intervals are not seeded: two runs of one
 * seed differ a little. PostgreSQL: `export TEST_DATABASE_URL=$(bash scripts/postgres.sh)` first.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { LeaderboardBody } from '@agora/contract';
import {
  CAMPAIGN_ADMIN_TOKEN,
  type Chooser,
  PACED_CAMPAIGN,
  TestClock,
  campaignChooser,
  campaignDuelBody,
  campaignEnvironment,
  flaggedVotes,
  mainBoard,
  playDuel,
  voteOn,
} from '../packages/server/test/paced-campaign';
import { seededRandom } from '../packages/server/test/seeded-random';
import { ClientAt, type TEST_MODELS, type TestArena, startTestArena } from '../packages/server/test/test-arena';
import { DIALECTS } from '../packages/server/test/test-db';
import { describeError, printChecks } from './script-checks';
import { type CampaignInfluence, influenceLines, influenceOnTarget } from './load-campaign-influence';

/** The hidden true strengths (Elo scale): the target fifth of six, 70 points between neighbours. */
const TRUE_STRENGTH: Readonly<Record<(typeof TEST_MODELS)[number]['id'], number>> = {
  'zephyrine-405b': 1200,
  'brontal-120b': 1130,
  'ombrel-70b': 1060,
  'sollary-32b': 990,
  'kestrix-8b': 920,
  'miravel-24b': 850,
};
const MINUTE_MS = 60_000;
/** Honest reading and thinking times, in ms. */
const READ_MS = [8_000, 40_000] as const;
const THINK_MS = [10_000, 60_000] as const;
/** The most duels one honest visitor plays. */
const MAX_DUELS_PER_VISITOR = 12;

interface CampaignOptions {
  store: 'sqlite' | 'postgres';
  seed: number;
  visitors: number;
  addressGroups: number;
  duelsPerVisitor: number;
  tieRate: number;
  sessionMs: number;
  campaignStartMs: number;
  campaignMode: 'custom' | 'random';
  customOnMain: boolean;
  /** How long after the answers end each campaign vote comes. */
  campaignReadMs: number;
}

const USAGE =
  'usage: npm run load -- --scenario campaign [--store sqlite|postgres] [--seed 1] [--visitors 300] [--address-groups N]\n' +
  '       [--duels-per-visitor 3] [--tie-rate 0.1] [--session-min 30] [--campaign-start-min 20]\n' +
  '       [--campaign-mode custom|random] [--custom-on-main] [--campaign-read-s 4.5]\n';

/** The options, or a usage error's message. */
function campaignOptions(argv: string[]): CampaignOptions | string {
  const { values } = parseArgs({
    args: argv,
    options: {
      scenario: { type: 'string' },
      store: { type: 'string', default: 'sqlite' },
      seed: { type: 'string', default: '1' },
      visitors: { type: 'string', default: '300' },
      'address-groups': { type: 'string' },
      'duels-per-visitor': { type: 'string', default: '3' },
      'tie-rate': { type: 'string', default: '0.1' },
      'session-min': { type: 'string', default: '30' },
      'campaign-start-min': { type: 'string', default: '20' },
      'campaign-mode': { type: 'string', default: 'custom' },
      'custom-on-main': { type: 'boolean', default: false },
      'campaign-read-s': { type: 'string', default: String(PACED_CAMPAIGN.readMs / 1000) },
    },
    strict: true,
  });
  const number = (name: string, text: string | undefined, min: number, max: number) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value < min || value > max) throw new RangeError(`--${name} must be a number in [${min}, ${max}]`);
    return value;
  };
  const { store, 'campaign-mode': campaignMode } = values;
  if (store !== 'sqlite' && store !== 'postgres') return '--store must be sqlite or postgres';
  if (campaignMode !== 'custom' && campaignMode !== 'random') return '--campaign-mode must be custom or random';
  try {
    const visitors = Math.floor(number('visitors', values.visitors, 1, 100_000));
    const sessionMs = number('session-min', values['session-min'], 1, 24 * 60) * MINUTE_MS;
    return {
      store,
      seed: Math.floor(number('seed', values.seed, 0, 2 ** 32 - 1)),
      visitors,
      addressGroups: Math.floor(number('address-groups', values['address-groups'] ?? String(visitors), 1, 65_536)),
      duelsPerVisitor: number('duels-per-visitor', values['duels-per-visitor'], 1, MAX_DUELS_PER_VISITOR),
      tieRate: number('tie-rate', values['tie-rate'], 0, 0.9),
      sessionMs,
      campaignStartMs: number('campaign-start-min', values['campaign-start-min'], 1, sessionMs / MINUTE_MS) * MINUTE_MS,
      campaignMode,
      customOnMain: values['custom-on-main'],
      campaignReadMs: number('campaign-read-s', values['campaign-read-s'], 0, 3600) * 1000,
    };
  } catch (error) {
    return (error as Error).message;
  }
}

/** Events in time order (first scheduled first at equal times); each runs alone, the clock moved to its time. */
class Timeline {
  private readonly events: { atMs: number; order: number; run: () => Promise<void> }[] = [];
  private scheduled = 0;
  nowMs = 0;

  constructor(private readonly clock: TestClock) {}

  at(atMs: number, run: () => Promise<void>): void {
    this.events.push({ atMs: Math.max(atMs, this.nowMs), order: this.scheduled++, run });
  }

  async run(): Promise<void> {
    while (this.events.length > 0) {
      let next = 0;
      for (let index = 1; index < this.events.length; index++) {
        const event = this.events[index]!;
        const best = this.events[next]!;
        if (event.atMs < best.atMs || (event.atMs === best.atMs && event.order < best.order)) next = index;
      }
      const [event] = this.events.splice(next, 1);
      this.clock.aheadMs += event!.atMs - this.nowMs;
      this.nowMs = event!.atMs;
      await event!.run();
    }
  }
}

/** What the run saw: the honest votes' duels, the campaign's, and the main board around the campaign. */
interface Observed {
  honestDuels: string[];
  campaignDuels: string[];
  campaignPlayed: number;
  before?: LeaderboardBody;
  after?: LeaderboardBody;
  /** The main board at the same moment as `after`, the campaign's votes excluded: the honest votes alone. */
  withoutCampaign?: LeaderboardBody;
  /** The target's most influential address groups on `after`'s votes, and the campaign's address hash. */
  influence?: CampaignInfluence;
}

/** An honest vote: a tie now and then, else Bradley–Terry with the true strengths. */
function honestChooser(random: () => number, tieRate: number): Chooser {
  return (modelA, modelB) => {
    if (random() < tieRate) return 'tie';
    const strength = (model: string) => TRUE_STRENGTH[model as keyof typeof TRUE_STRENGTH] ?? 1000;
    const winsA = 1 / (1 + 10 ** ((strength(modelB) - strength(modelA)) / 400));
    return random() < winsA ? 'a' : 'b';
  };
}

/** The honest visitors: each arrives, plays, reads, votes, thinks and plays again, or leaves. */
function scheduleHonestVisitors(timeline: Timeline, harness: TestArena, options: CampaignOptions, observed: Observed): void {
  const random = seededRandom(options.seed);
  const between = ([low, high]: readonly [number, number]) => low + random() * (high - low);
  const choose = honestChooser(random, options.tieRate);
  const keepPlaying = 1 - 1 / options.duelsPerVisitor;
  for (let visitor = 0; visitor < options.visitors; visitor++) {
    const group = Math.floor(random() * options.addressGroups);
    const address = `10.${group >> 8}.${group & 255}.${1 + (visitor % 250)}`;
    const client = new ClientAt(harness.baseUrl, address);
    let duels = 1;
    while (duels < MAX_DUELS_PER_VISITOR && random() < keepPlaying) duels++;
    const play = (left: number) => async () => {
      const id = await playDuel(client, { mode: 'random' });
      timeline.at(timeline.nowMs + between(READ_MS), async () => {
        if (await voteOn(harness, client, id, choose)) observed.honestDuels.push(id);
        if (left > 1) timeline.at(timeline.nowMs + between(THINK_MS), play(left - 1));
      });
    };
    timeline.at(random() * options.sessionMs, play(duels));
  }
}

/**
 * The main board with `duels`' votes excluded by a reviewer (admin API): what the honest
 * votes alone make of it, so that the campaign's own effect is told apart from their drift meanwhile.
 */
async function boardWithout(harness: TestArena, duels: readonly string[]): Promise<LeaderboardBody> {
  const authorization = `Bearer ${CAMPAIGN_ADMIN_TOKEN}`;
  for (const id of duels) {
    const body = { decision: 'exclude', reviewer: 'load-campaign', reason: 'the campaign left out' };
    const answer = await harness.client.request('PUT', `/api/v1/admin/votes/${id}`, body, { authorization });
    if (answer.status !== 200) throw new Error(`PUT /api/v1/admin/votes/${id} answered ${answer.status}`);
  }
  return mainBoard(harness);
}

/** The main board once the campaign ended, with its votes and without them (the same honest votes in both). */
async function measureAfter(harness: TestArena, options: CampaignOptions, observed: Observed): Promise<void> {
  observed.after = await mainBoard(harness);
  observed.influence = await influenceOnTarget(harness, options.customOnMain, observed.campaignDuels);
  observed.withoutCampaign = await boardWithout(harness, observed.campaignDuels);
}

/** The campaign: a duel every 60/55 s from one address, each with a fresh cookie, voted --campaign-read-s after its answers. */
function scheduleCampaign(timeline: Timeline, harness: TestArena, options: CampaignOptions, observed: Observed): void {
  const spacingMs = Math.ceil(MINUTE_MS / PACED_CAMPAIGN.votesPerMinute);
  let votes = 0;
  const duel = (index: number) => async () => {
    if (votes >= PACED_CAMPAIGN.votes) return;
    const script = new ClientAt(harness.baseUrl, PACED_CAMPAIGN.address);
    const body = options.campaignMode === 'custom' ? campaignDuelBody(index) : { mode: 'random' };
    const id = await playDuel(script, body);
    observed.campaignPlayed++;
    timeline.at(timeline.nowMs + options.campaignReadMs, async () => {
      if (votes >= PACED_CAMPAIGN.votes || !(await voteOn(harness, script, id, campaignChooser(votes)))) return;
      observed.campaignDuels.push(id);
      if (++votes === PACED_CAMPAIGN.votes) timeline.at(timeline.nowMs, () => measureAfter(harness, options, observed));
    });
    timeline.at(timeline.nowMs + spacingMs, duel(index + 1));
  };
  timeline.at(options.campaignStartMs, async () => {
    observed.before = await mainBoard(harness);
    await duel(0)();
  });
}

const signed = (value: number) => `${value >= 0 ? '+' : ''}${value.toFixed(1)}`;
const percent = (part: number, whole: number) => (whole === 0 ? 0 : (100 * part) / whole);

/** The main board in one line: rank, model and rating. */
function boardLine(board: LeaderboardBody): string {
  return board.models.map((row) => `${row.rank ?? '-'}. ${row.model} ${row.rating.toFixed(0)}`).join(', ');
}

/** How many of `duels` carry each flag. */
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

/** A model's row on a board. */
function rowOf(board: LeaderboardBody, model: string): LeaderboardBody['models'][number] {
  const row = board.models.find((candidate) => candidate.model === model);
  if (!row) throw new Error(`${model} is not on the main board`);
  return row;
}

const ranksOf = (board: LeaderboardBody) => board.models.map((row) => `${row.model}:${row.rank}`).join(' ');

/**
 * The summary and the checks. The campaign's effect is the board with its votes against the same
 * board without them (honest visitors voted meanwhile, and their drift is no effect of the campaign).
 */
function report(options: CampaignOptions, observed: Observed, flags: ReadonlyMap<string, string[]>, timing: string): number {
  const { before, after, withoutCampaign } = observed;
  if (!before || !after || !withoutCampaign)
    throw new Error(`the campaign cast ${observed.campaignDuels.length} of ${PACED_CAMPAIGN.votes} votes`);
  const target = PACED_CAMPAIGN.target;
  const [targetBefore, targetAfter, targetWithout] = [before, after, withoutCampaign].map((board) => rowOf(board, target)) as [
    ReturnType<typeof rowOf>,
    ReturnType<typeof rowOf>,
    ReturnType<typeof rowOf>,
  ];
  const halfWidth = (targetBefore.ci_high - targetBefore.ci_low) / 2;
  const effect = targetAfter.rating - targetWithout.rating;
  const campaign = flagCounts(observed.campaignDuels, flags);
  const honest = flagCounts(observed.honestDuels, flags);
  const honestRate = percent(honest.flagged, observed.honestDuels.length);
  const offMainBoard = options.campaignMode === 'custom' && !options.customOnMain;
  const lines = [
    `load-campaign: store ${options.store}, seed ${options.seed}, ${options.visitors} honest visitors in ${options.addressGroups} /24s, campaign in ${options.campaignMode} mode, custom-mode votes ${options.customOnMain ? 'on the main board' : 'in their own view'}; ${timing}`,
    `main board before the campaign (${before.n_votes} votes): ${boardLine(before)}`,
    `main board after the campaign (${after.n_votes} votes): ${boardLine(after)}`,
    `main board after, without the campaign's votes (${withoutCampaign.n_votes} votes): ${boardLine(withoutCampaign)}`,
    `target ${target}: rating ${targetBefore.rating.toFixed(1)} → ${targetAfter.rating.toFixed(1)} (change ${signed(targetAfter.rating - targetBefore.rating)}, interval half-width ${halfWidth.toFixed(1)}), rank ${targetBefore.rank} → ${targetAfter.rank}`,
    `  of which the campaign's votes: ${signed(effect)} (without them ${targetWithout.rating.toFixed(1)}, rank ${targetWithout.rank}); the rest is the honest votes meanwhile`,
    `campaign: ${observed.campaignDuels.length} votes (${observed.campaignPlayed} duels), flagged ${campaign.flagged} (${campaign.byRule})`,
    `honest visitors: ${observed.honestDuels.length} votes, flagged ${honest.flagged} (${honestRate.toFixed(2)} %; ${honest.byRule})`,
    ...(flags.size >= 1000 ? ['(the admin API lists 1,000 flagged votes at most: the counts above are lower bounds)'] : []),
    ...influenceLines(observed.influence),
    'checks:',
  ];
  return printChecks('load-campaign', lines, [
    [
      `the campaign moved the target by less than its interval's half-width (|${signed(effect)}| < ${halfWidth.toFixed(1)})`,
      Math.abs(effect) < halfWidth,
    ],
    [
      `the campaign changed no rank (target ${targetWithout.rank} without it, ${targetAfter.rank} with it)`,
      ranksOf(after) === ranksOf(withoutCampaign),
    ],
    [`at most 1 % of the honest votes flagged (${honestRate.toFixed(2)} %)`, honestRate <= 1],
    offMainBoard
      ? ["the campaign's custom-mode votes are in their own view, not on the main board: no influence to find there", true]
      : [
          "the campaign's address is first on the target's influence list by address",
          observed.influence !== undefined && observed.influence.top[0]?.group === observed.influence.campaignAddress,
        ],
  ]);
}

async function runCampaign(options: CampaignOptions): Promise<number> {
  const dialect = DIALECTS.find((candidate) => candidate.name === options.store);
  if (!dialect) throw new Error('--store postgres needs TEST_DATABASE_URL: export TEST_DATABASE_URL=$(bash scripts/postgres.sh)');
  const started = performance.now();
  const clock = new TestClock();
  const harness = await startTestArena(dialect, { runtime: clock.runtime, environment: campaignEnvironment(options.customOnMain) });
  try {
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const observed: Observed = { honestDuels: [], campaignDuels: [], campaignPlayed: 0 };
    const timeline = new Timeline(clock);
    scheduleHonestVisitors(timeline, harness, options, observed);
    scheduleCampaign(timeline, harness, options, observed);
    await timeline.run();
    await mainBoard(harness);
    const flags = await flaggedVotes(harness);
    const timing = `${(timeline.nowMs / MINUTE_MS).toFixed(0)} min on the arena's clock in ${((performance.now() - started) / 1000).toFixed(0)} s`;
    return report(options, observed, flags, timing);
  } finally {
    await harness.close();
  }
}

/** The campaign scenario of `npm run load`, given the command line's arguments: its exit code (2 on a usage error). */
export async function runCampaignScenario(argv: string[]): Promise<number> {
  let options: CampaignOptions | string;
  try {
    options = campaignOptions(argv);
  } catch (error) {
    options = (error as Error).message;
  }
  if (typeof options === 'string') {
    process.stderr.write(`load-campaign: ${options}\n${USAGE}`);
    return 2;
  }
  try {
    return await runCampaign(options);
  } catch (error) {
    process.stderr.write(`load-campaign: ${describeError(error)}\n`);
    return 1;
  }
}
