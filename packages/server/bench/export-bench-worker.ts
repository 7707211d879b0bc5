/**
 * Child process of the export benchmark: `generate DB N` writes a seeded synthetic store of N
 * conversations (bulk inserts straight into SQLite); `measure DB OUT` exports it to Parquet with
 * `DatasetExportService` (both tiers: `OUT/public/` and `OUT/gated/`) and prints one JSON line:
 * conversations, seconds, rows per dataset, output size, peak RSS.
 */
import { readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { loadCatalogue } from '../src/config/catalogue';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createStore } from '../src/db/unit-of-work';
import { DatasetExportService } from '../src/services/dataset-export.service';
import { DATASET_NAMES, type DatasetName } from '../src/domain/datasets/export-columns';
import { exportModelFacts } from '../src/domain/datasets/export-model-facts';
import { sentenceMaker } from './synthetic-prompts';

const CATALOGUE = new URL('../../../models.yaml', import.meta.url).pathname;
const TAGS = ['useful', 'complete', 'creative', 'clear_formatting', 'incorrect', 'superficial', 'instructions_not_followed'];

/** xorshift32: the same store for the same N on every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

const WORDS =
  'le la les un une des de du et à en pour avec sans sur sous dans par que qui quoi comment pourquoi énergie photosynthèse recette histoire langue modèle réponse question exemple code fonction données ville région musique théâtre loi impôt santé sport climat océan montagne'.split(
    ' ',
  );

function sentencePool(random: () => number, size: number): string[] {
  return Array.from({ length: size }, () => {
    const words = Array.from({ length: 6 + Math.floor(random() * 10) }, () => WORDS[Math.floor(random() * WORDS.length)]!);
    return `${words.join(' ')}.`;
  });
}

async function generate(path: string, count: number): Promise<void> {
  const kysely = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(kysely);
  await kysely.destroy();
  const models = loadCatalogue(CATALOGUE, {}).map((model) => model.entry.id);
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const random = seeded(20261130);
  const sentences = sentencePool(random, 2000);
  const text = (sentencesCount: number) =>
    Array.from({ length: sentencesCount }, () => sentences[Math.floor(random() * sentences.length)]).join(' ');
  // Prompts from their own stream (the answers, votes and reactions stay those of the stream above):
  // sentences of 4,000 French words by Zipf's law, each new, and one prompt in ten an earlier one
  // again. Drawn from the 2,000 sentences of 40 words, 40 % of first prompts repeated an earlier one
  // whole and each shared band keys with about 108 earlier ones (measured at 20,000), which made the
  // post-processing bench's near-duplicate matching its own workload rather than an arena's.
  const promptRandom = seeded(20261207);
  const sentence = sentenceMaker(promptRandom, ['fr']);
  const earlier: string[] = [];
  const prompt = (): string => {
    if (promptRandom() < 0.1 && earlier.length > 0) return earlier[Math.floor(promptRandom() * earlier.length)]!;
    const made = Array.from({ length: 1 + Math.floor(promptRandom() * 2) }, () => sentence('fr')).join(' ');
    if (earlier.length < 5000) earlier.push(made);
    return made;
  };
  const insertDuel = db.prepare(
    'INSERT INTO duels (id, visitor_hash, mode, model_a, model_b, chosen_models, locale, status, turn_count, created_at, updated_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)',
  );
  const insertTurn = db.prepare(
    "INSERT INTO turns (duel_id, turn, prompt, status, started_at, ended_at) VALUES (?, ?, ?, 'complete', ?, ?)",
  );
  const insertSide = db.prepare(
    "INSERT INTO turn_sides (duel_id, turn, side, model_id, text, output_tokens, status, identity_leak) VALUES (?, ?, ?, ?, ?, ?, 'complete', 0)",
  );
  const insertAnnotation = db.prepare(
    "INSERT INTO conversation_annotations (duel_id, status, turns_annotated, languages, contains_pii, model_status, categories, keywords, short_summary, updated_at) VALUES (?, ?, ?, ?, ?, 'not_configured', ?, ?, NULL, ?)",
  );
  const insertVote = db.prepare(
    "INSERT INTO votes (duel_id, choice, model_a, model_b, tags_a, tags_b, comment_a, comment_b, identity_leak, mode, locale, created_at) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, 0, 'random', 'fr', ?)",
  );
  const insertReaction = db.prepare(
    'INSERT INTO reactions (duel_id, turn, side, model_id, value, tags, comment, created_at, updated_at) VALUES (?, 1, ?, ?, ?, ?, NULL, ?, ?)',
  );
  const insertReport = db.prepare("INSERT INTO reports (id, duel_id, reason, created_at) VALUES (?, ?, 'personal data', ?)");
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const tags = () => JSON.stringify(TAGS.filter(() => random() < 0.1));
  const chunk = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index++) {
      const id = `d${index.toString(36).padStart(21, '0')}`;
      const at = new Date(start + index * 1000).toISOString();
      const modelA = models[Math.floor(random() * models.length)]!;
      const modelB = models[Math.floor(random() * models.length)]!;
      const turns = random() < 0.6 ? 1 : random() < 0.7 ? 2 : 3;
      insertDuel.run(id, `visitor-${Math.floor(random() * 200_000)}`, 'random', modelA, modelB, 'fr', 'voted', turns, at, at);
      for (let turn = 1; turn <= turns; turn++) {
        // The former prompt's draws are still taken, so that everything else is the store it was.
        text(1 + Math.floor(random() * 2));
        insertTurn.run(id, turn, prompt(), at, at);
        insertSide.run(id, turn, 'a', modelA, text(3 + Math.floor(random() * 6)), 50 + Math.floor(random() * 400));
        insertSide.run(id, turn, 'b', modelB, text(3 + Math.floor(random() * 6)), 50 + Math.floor(random() * 400));
      }
      const status = random() < 0.95 ? 'done' : 'pending';
      insertAnnotation.run(
        id,
        status,
        turns,
        random() < 0.9 ? '["fr"]' : '["en","fr"]',
        random() < 0.02 ? 1 : 0,
        '["science"]',
        '["énergie"]',
        at,
      );
      if (random() < 0.6) insertVote.run(id, ['a', 'b', 'tie', 'both_bad'][Math.floor(random() * 4)], modelA, modelB, tags(), tags(), at);
      if (random() < 0.2) insertReaction.run(id, random() < 0.5 ? 'a' : 'b', modelA, random() < 0.6 ? 'like' : 'dislike', tags(), at, at);
      if (random() < 0.005) insertReport.run(`r${index}`, id, at);
    }
  });
  for (let from = 0; from < count; from += 10_000) chunk(from, Math.min(count, from + 10_000));
  db.close();
}

async function measure(path: string, out: string, datasets: readonly DatasetName[]): Promise<void> {
  const models = loadCatalogue(CATALOGUE, {});
  const db = openDatabase({ kind: 'sqlite', path });
  const store = createStore(db);
  const service = new DatasetExportService(store.datasets, exportModelFacts(models, { method: '0.9.1', zone: undefined }), {
    privateCohorts: [],
    rowGroupRows: process.env.AGORA_BENCH_ROW_GROUP ? Number(process.env.AGORA_BENCH_ROW_GROUP) : undefined,
    batchSize: process.env.AGORA_BENCH_BATCH ? Number(process.env.AGORA_BENCH_BATCH) : undefined,
    shuffleRows: process.env.AGORA_BENCH_SHUFFLE ? Number(process.env.AGORA_BENCH_SHUFFLE) : undefined,
    threads: process.env.AGORA_BENCH_THREADS === '1',
  });
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const result = await service.export({ outDir: out, formats: ['parquet'], datasets });
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await store.close();
  const bytes = readdirSync(out, { recursive: true, encoding: 'utf8' }).reduce(
    (sum, name) => sum + (statSync(join(out, name)).isFile() ? statSync(join(out, name)).size : 0),
    0,
  );
  process.stdout.write(
    `${JSON.stringify({
      conversations: result.conversationsRead,
      seconds,
      cpuSeconds,
      // Rows per dataset of the public tier, which has all six (the gated tier repeats compar:IA's three).
      rows: result.files.reduce<Record<string, number>>(
        (rows, file) => ({
          ...rows,
          [file.dataset]: (rows[file.dataset] ?? 0) + (file.format === 'parquet' && file.tier === 'public' ? file.rows : 0),
        }),
        {},
      ),
      outputMb: bytes / 1e6,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      load: loadavg()[0],
    })}\n`,
  );
}

const [command, path, argument, datasets] = process.argv.slice(2);
if (command === 'generate') await generate(path!, Number(argument));
else if (command === 'measure') await measure(path!, argument!, datasets ? (datasets.split(',') as DatasetName[]) : DATASET_NAMES);
else throw new Error(`unknown command ${command}`);
