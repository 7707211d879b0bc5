/**
 * Post-processing benchmark (`npm run bench -- postprocess`): `agora postprocess --no-model` (the
 * rules layer: languages and personal-data rules, on one worker thread per core) over a synthetic
 * store, against the language detector alone on the same messages in one thread, in the same run.
 * Goals (issue 20): ≥ 3,000 conversations/s, and ≥ 0.5 of the detector's own throughput; memory
 * flat (peak RSS printed); progress shown.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { createLanguageDetector } from '../src/adapters/language-detector';

const root = new URL('../../..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
const SIZES = (process.env.AGORA_BENCH_POSTPROCESS_SIZES ?? '20000,60000').split(',').map(Number);

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'agora-bench-postprocess-'));
  process.stdout.write(
    `${availableParallelism()} cores; synthetic French conversations of 1–3 turns (answers of 3–8 sentences), the export bench's generator\n\n` +
      '| conversations | messages | characters | `agora postprocess` | of which processing | conversations/s | peak RSS | detector alone | conversations/s | ratio | load |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n',
  );
  try {
    for (const size of SIZES) {
      const store = join(folder, `store-${size}.db`);
      execFileSync(process.execPath, [
        '--import',
        tsx,
        join(root, 'packages/server/bench/export-bench-worker.ts'),
        'generate',
        store,
        String(size),
      ]);
      const db = new SqliteDatabase(store);
      db.exec('DELETE FROM conversation_annotations');
      const messages = db
        .prepare("SELECT t.prompt AS text FROM turns t UNION ALL SELECT s.text AS text FROM turn_sides s WHERE s.status = 'complete'")
        .pluck()
        .all() as string[];
      db.close();
      const characters = messages.reduce((sum, text) => sum + text.length, 0);

      // The yardstick: the language detector alone, every message once, in this thread.
      const detector = createLanguageDetector();
      await detector.detect('warm-up: chargement des tables');
      const detectorStarted = performance.now();
      for (const text of messages) await detector.detect(text);
      const detectorSeconds = (performance.now() - detectorStarted) / 1000;

      // The command itself, as an operator runs it; GNU time reports its peak RSS.
      const started = performance.now();
      const command = spawnSync('/usr/bin/time', ['-f', 'peak-rss-kb %M', join(root, 'bin/agora'), 'postprocess', '--no-model'], {
        env: { ...process.env, DATABASE_URL: `sqlite:${store}`, AGORA_LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      const seconds = (performance.now() - started) / 1000;
      if (command.status !== 0) throw new Error(`agora postprocess failed: ${command.stderr}`);
      const summary = JSON.parse(command.stdout.trim().split('\n').at(-1)!) as { processed: number };
      if (summary.processed !== size) throw new Error(`postprocess handled ${summary.processed} of ${size} conversations`);
      // Peak RSS of the whole process tree's largest process (GNU time: the command and its threads).
      const rss = Number(/peak-rss-kb (\d+)/.exec(command.stderr)?.[1] ?? Number.NaN);
      // Its closing line times the processing, after the start (modules, store, threads), as the
      // detector's yardstick is timed after its own load.
      const processing = Number(/post-processed \d+ conversations in ([\d.]+) s/.exec(command.stderr)?.[1] ?? Number.NaN);
      const rate = size / processing;
      const detectorRate = size / detectorSeconds;
      process.stdout.write(
        `| ${size.toLocaleString('en')} | ${messages.length.toLocaleString('en')} | ${(characters / 1e6).toFixed(1)} M | ${seconds.toFixed(1)} s | ${processing.toFixed(1)} s | ${Math.round(rate).toLocaleString('en')} | ${Number.isNaN(rss) ? '?' : `${Math.round(rss / 1024)} MB`} | ${detectorSeconds.toFixed(1)} s | ${Math.round(detectorRate).toLocaleString('en')} | ${(rate / detectorRate).toFixed(2)} | ${loadavg()[0]!.toFixed(1)} |\n`,
      );
      rmSync(store, { force: true });
    }
    process.stdout.write(
      "\nThe command's time includes its start (about 1.5 s: modules, the store, the threads and their detectors); the rate is the processing's, from its closing line, as the detector is timed after its load. Goals: ≥ 3,000 conversations/s; ratio ≥ 0.5.\n",
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
