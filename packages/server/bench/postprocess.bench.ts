/**
 * Post-processing benchmark (`npm run bench -- postprocess [--conversations=N]`): `agora
 * postprocess --no-model` (personal-data rules, languages, capability labels and prompt signatures
 * on one worker thread per core; near-duplicate clusters and the writes on the event loop) over two
 * synthetic stores, against the language detector alone on the same messages, called directly in
 * one thread, in the same run (the yardstick: what `agora lang` does). The stores: the bench's own
 * data (the export bench's French conversations of 1–3 turns, 20,000) and N short conversations of
 * one turn (three messages) in five languages (default 200,000). Each stage is also timed alone in
 * this thread on the same texts, and the command prints its event loop's time per stage, so that
 * the note can say where the time goes. Goal (issue 35): a ratio of at least 0.6 on both stores.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { createLanguageDetector } from '../src/adapters/language-detector';
import { ruleCapabilities } from '../src/domain/annotation/capability-rules';
import { screenText } from '../src/domain/privacy';
import { signPrompt } from '../src/domain/prompts/prompt-cluster-index';

const root = new URL('../../..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const GOAL = 0.6;
const flag = process.argv.find((arg) => arg.startsWith('--conversations='));
const SHORT = Number(flag?.split('=')[1] ?? process.env.AGORA_BENCH_POSTPROCESS_CONVERSATIONS ?? 200_000);
const OWN = Number(process.env.AGORA_BENCH_POSTPROCESS_OWN ?? 20_000);

interface Store {
  name: string;
  conversations: number;
  generator: string;
}

/** Seconds of `work` over every item, after one untimed call. */
function timed<T>(items: readonly T[], work: (item: T) => unknown): number {
  if (items.length > 0) work(items[0]!);
  const started = performance.now();
  for (const item of items) work(item);
  return (performance.now() - started) / 1000;
}

async function measure(folder: string, store: Store): Promise<string> {
  const path = join(folder, `${store.name}.db`);
  execFileSync(process.execPath, [
    '--import',
    tsx,
    join(root, 'packages/server/bench', store.generator),
    'generate',
    path,
    String(store.conversations),
  ]);
  const db = new SqliteDatabase(path);
  db.exec('DELETE FROM conversation_annotations');
  const messages = db
    .prepare("SELECT t.prompt AS text FROM turns t UNION ALL SELECT s.text AS text FROM turn_sides s WHERE s.status = 'complete'")
    .pluck()
    .all() as string[];
  const prompts = db.prepare('SELECT group_concat(prompt, char(10) || char(10)) FROM turns GROUP BY duel_id').pluck().all() as string[];
  const firstPrompts = db.prepare('SELECT prompt FROM turns WHERE turn = 1').pluck().all() as string[];
  db.close();

  // The yardstick: the language detector alone, every message once, in this thread, after its load.
  const detector = createLanguageDetector();
  await detector.detect('warm-up: chargement des tables');
  const detectorStarted = performance.now();
  for (const text of messages) await detector.detect(text);
  const detectorSeconds = (performance.now() - detectorStarted) / 1000;
  // Each pure stage alone, one thread, the same texts.
  const rulesSeconds = timed(messages, (text) => screenText(text));
  const labelsSeconds = timed(prompts, (text) => ruleCapabilities([text]));
  const signSeconds = timed(firstPrompts, (text) => signPrompt('', text));

  const command = spawnSync('/usr/bin/time', ['-f', 'peak-rss-kb %M', join(root, 'bin/agora'), 'postprocess', '--no-model', '--stages'], {
    env: { ...process.env, DATABASE_URL: `sqlite:${path}`, AGORA_LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (command.status !== 0) throw new Error(`agora postprocess failed: ${command.stderr}`);
  const summary = JSON.parse(command.stdout.trim().split('\n').at(-1)!) as { processed: number };
  if (summary.processed !== store.conversations) throw new Error(`postprocess handled ${summary.processed} of ${store.conversations}`);
  rmSync(path, { force: true });
  const rss = Number(/peak-rss-kb (\d+)/.exec(command.stderr)?.[1] ?? Number.NaN);
  // Its closing line times the processing after the start (modules, store, threads), as the detector is timed after its load.
  const processing = Number(/post-processed \d+ conversations in ([\d.]+) s/.exec(command.stderr)?.[1] ?? Number.NaN);
  const stages = /post-processing stages: (.*)/.exec(command.stderr)?.[1] ?? '?';
  const rate = store.conversations / processing;
  const detectorRate = store.conversations / detectorSeconds;
  const ratio = rate / detectorRate;
  return (
    `| ${store.name} | ${store.conversations.toLocaleString('en')} | ${messages.length.toLocaleString('en')} | ${detectorSeconds.toFixed(1)} s = ${Math.round(detectorRate).toLocaleString('en')}/s | ` +
    `${processing.toFixed(1)} s = ${Math.round(rate).toLocaleString('en')}/s | **${ratio.toFixed(2)}** (goal ${GOAL}: ${ratio >= GOAL ? 'met' : 'not met'}) | ` +
    `${Number.isNaN(rss) ? '?' : `${Math.round(rss / 1024)} MB`} | rules ${rulesSeconds.toFixed(1)} s, labels ${labelsSeconds.toFixed(1)} s, signatures ${signSeconds.toFixed(1)} s | ${stages} | ${loadavg()[0]!.toFixed(1)} |\n`
  );
}

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'agora-bench-postprocess-'));
  process.stdout.write(
    `${availableParallelism()} cores. Yardstick: the language detector alone on the same messages, one thread, same run.\n\n` +
      "| store | conversations | messages | detector alone | `agora postprocess --no-model` | ratio | peak RSS | stages alone, one thread | the command's event loop per stage | load |\n|---|---:|---:|---:|---:|---:|---:|---|---|---:|\n",
  );
  try {
    const stores: Store[] = [
      { name: 'bench data (fr, 1–3 turns)', conversations: OWN, generator: 'export-bench-worker.ts' },
      { name: 'short (1 turn, 5 languages)', conversations: SHORT, generator: 'postprocess-store.ts' },
    ];
    for (const store of stores) process.stdout.write(await measure(folder, store));
    process.stdout.write(
      "\nThe rate is the processing's, from the command's closing line (after its start: modules, store, threads and detectors). " +
        'Its stages are event-loop wall time summed over pages (`rules` waits for the threads; `read` overlaps them). Goal: ratio ≥ 0.6 on both stores.\n',
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
