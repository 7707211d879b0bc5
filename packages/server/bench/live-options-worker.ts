/**
 * Child process of the ranking benchmark's live-board part (issue 34: the refresh with every
 * option on, against the refresh with none).
 * - `generate DB N`: a SQLite store of N voted duels (test/synthetic-store.ts: 40 models, 200k
 *   visitors, style counts) with each conversation's annotation: a topic, capability labels
 *   (LMArena's hard-prompt criteria and the rule labels, about two a conversation), a prompt
 *   cluster (70 % their own, 30 % in 5,000 shared clusters of very unequal sizes, so that the cap
 *   binds), and survey answers for one visitor in five.
 * - `strip DB`: the same store without capability labels (the board of before issue 34 has no
 *   capability views; de-duplication is switched off by its setting).
 * - `measure DB none|all`: three full reads (a new LeaderboardService each, as a start without a
 *   snapshot), then three refreshes each after 1,000 new votes written by another connection,
 *   and, with `all`, three computations of the population board. Prints one JSON line (ms).
 */
import SqliteDatabase from 'better-sqlite3';
import { loadConfig } from '../src/config/config';
import { parseCatalogue } from '../src/config/catalogue';
import { loadSurvey } from '../src/config/survey-config';
import { openStore } from '../src/composition/store-access';
import { WorkerRankingComputer } from '../src/adapters/ranking-worker/ranking-computer';
import { ArenaCatalogue } from '../src/services/arena-catalogue';
import { LeaderboardService } from '../src/services/leaderboard.service';
import { PopulationBoardService } from '../src/services/population-board.service';
import { systemRuntime } from '../src/services/ports/runtime';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { CAPABILITY_LABELS } from '../src/domain/annotation/capabilities';
import { seededRandom } from '../test/seeded-random';
import { duelWriter, SYNTHETIC_MODELS as MODELS } from '../test/synthetic-store';

const TOPICS = ['science', 'code', 'health', 'education', 'culture', 'business', 'travel', 'law'];
const SURVEY = new URL('../../../docs/examples/survey.fr.yaml', import.meta.url).pathname;
const SURVEY_OPTIONS: Record<string, string[]> = {
  age_band: ['18_24', '25_34', '35_49', '50_64', '65_plus'],
  gender: ['woman', 'man'],
  education: ['below_upper_secondary', 'upper_secondary', 'higher'],
};
const NEW_VOTES = 1_000;
const TRIALS = 3;

const duelId = (index: number) => `d${index.toString(36).padStart(12, '0')}`;

/** Writes `count` voted duels from `from` on, each with its annotation (the ids duelWriter gives). */
function annotatedWriter(db: SqliteDatabase.Database, seed: number): (index: number, atMs: number) => void {
  const write = duelWriter(db, seed);
  const random = seededRandom(seed + 1);
  const insert = db.prepare(
    "INSERT INTO conversation_annotations (duel_id, status, model_status, turns_annotated, languages, categories, capabilities, prompt_cluster, updated_at) VALUES (?, 'done', 'done', 1, '[]', ?, ?, ?, ?)",
  );
  return (index, atMs) => {
    write(index, atMs);
    const id = duelId(index);
    const labels = CAPABILITY_LABELS.filter(() => random() < 0.14);
    // 30 % of the prompts in shared clusters, the first ones much the largest (cube of a uniform draw).
    const cluster = random() < 0.3 ? `c${Math.floor(5_000 * random() ** 3)}` : id;
    const topic = TOPICS[Math.floor(random() * TOPICS.length)]!;
    insert.run(id, JSON.stringify([topic]), JSON.stringify(labels), cluster, new Date(atMs).toISOString());
  };
}

async function generate(path: string, count: number): Promise<void> {
  const kysely = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(kysely);
  await kysely.destroy();
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const write = annotatedWriter(db, 20261210);
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const chunk = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index++) write(index, start + index * 1000);
  });
  for (let from = 0; from < count; from += 50_000) chunk(from, Math.min(count, from + 50_000));
  // One visitor in five answered the survey (duelWriter's visitors are visitor-0 … visitor-199999).
  const random = seededRandom(7);
  const answer = db.prepare('INSERT INTO survey_answers (visitor_hash, answers, answered_at) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let visitor = 0; visitor < 200_000; visitor += 5) {
      const answers = Object.fromEntries(
        Object.entries(SURVEY_OPTIONS).map(([question, options]) => [question, options[Math.floor(random() * options.length)]!]),
      );
      answer.run(`visitor-${visitor}`, JSON.stringify(answers), new Date(start).toISOString());
    }
  })();
  db.close();
}

function strip(path: string): void {
  const db = new SqliteDatabase(path);
  db.prepare('UPDATE conversation_annotations SET capabilities = NULL').run();
  db.close();
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/** Wall and CPU time (every thread of this process: the ranking worker's too) of `run`, in ms. */
async function timed<T>(run: () => Promise<T>): Promise<[number, number, T]> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await run();
  const used = process.cpuUsage(cpu);
  return [performance.now() - started, (used.user + used.system) / 1000, result];
}

async function measure(path: string, options: 'none' | 'all'): Promise<void> {
  const all = options === 'all';
  const config = loadConfig({ DATABASE_URL: `sqlite:${path}`, AGORA_LEADERBOARD_PROMPT_DEDUP: all ? '1' : '0' });
  const yaml = `models:\n${MODELS.map((id) => `  - {id: ${id}, name: ${id}, organisation: bench, license: MIT, open_weights: true, arch: dense, params_b: 7, provider: {type: openai-compatible, base_url: 'http://127.0.0.1:9/v1', model: ${id}}}`).join('\n')}\n`;
  const catalogue = new ArenaCatalogue(parseCatalogue(yaml, 'bench.yaml', {}));
  const store = await openStore(config);
  const computer = new WorkerRankingComputer();
  const settings = {
    minVotes: config.leaderboard.minVotes,
    customModeOnMainBoard: config.leaderboard.customModeOnMainBoard,
    promptDedup: config.leaderboard.promptDedup,
    impact: config.impact,
    integrity: config.integrity,
  };
  const service = () => new LeaderboardService({ store, catalogue, computer, runtime: systemRuntime, settings });
  const full: number[] = [];
  const cpu = { full: [] as number[], incremental: [] as number[], population: [] as number[] };
  let board = service();
  let views = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    board = service();
    const [ms, cpuMs, outcome] = await timed(() => board.refresh());
    if (outcome.read !== 'everything') throw new Error(`a full read read ${outcome.read}`);
    full.push(ms);
    cpu.full.push(cpuMs);
    views = outcome.views;
  }
  const incremental: number[] = [];
  const writer = new SqliteDatabase(path);
  const write = annotatedWriter(writer, 11);
  let next = await store.feedback.countVotes();
  for (let trial = 0; trial < TRIALS; trial++) {
    const from = next;
    writer.transaction(() => {
      for (let index = from; index < from + NEW_VOTES; index++) write(index, Date.now());
    })();
    next += NEW_VOTES;
    const [ms, cpuMs, outcome] = await timed(() => board.refresh());
    if (outcome.read !== 'changes') throw new Error(`an incremental refresh read ${outcome.read}`);
    incremental.push(ms);
    cpu.incremental.push(cpuMs);
  }
  writer.close();
  const population: number[] = [];
  if (all)
    for (let trial = 0; trial < TRIALS; trial++) {
      const weighted = new PopulationBoardService({ store, catalogue, runtime: systemRuntime, survey: loadSurvey(SURVEY) });
      const [ms, cpuMs, body] = await timed(() => weighted.board());
      if (!body.shown) throw new Error(`the population board is not shown: ${body.reason}`);
      population.push(ms);
      cpu.population.push(cpuMs);
    }
  await computer.close();
  await store.close();
  const result = {
    options,
    views,
    votes: next,
    full: median(full),
    incremental: median(incremental),
    population: all ? median(population) : 0,
    cpu: { full: median(cpu.full), incremental: median(cpu.incremental), population: all ? median(cpu.population) : 0 },
  };
  process.stdout.write(
    `${JSON.stringify({ ...result, fullTrials: full, incrementalTrials: incremental, populationTrials: population })}\n`,
  );
}

const [command, ...args] = process.argv.slice(2);
if (command === 'generate') await generate(args[0]!, Number(args[1]));
else if (command === 'strip') strip(args[0]!);
else if (command === 'measure') await measure(args[0]!, args[1] === 'all' ? 'all' : 'none');
else throw new Error(`live-options-worker: unknown command ${command}`);
