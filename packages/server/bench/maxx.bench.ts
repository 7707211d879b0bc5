/**
 * Optimised preference set benchmark (`npm run bench -- maxx`): the pipeline over real HTTP against
 * the fake upstream in its own process, on a synthetic screened SQLite store.
 * - Orchestration CPU per item against a zero-latency upstream: everything `agora maxx` does besides
 *   waiting (building prompts, the provider client, validation, the cache and outcome writes, rules).
 * - Throughput at concurrency 32 against an upstream that answers every call after 200 ms, as a ratio
 *   of the ideal: 32 items at a time, each a chain of calls of 200 ms and nothing else.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCatalogue } from '../src/config/catalogue';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createStore } from '../src/db/unit-of-work';
import { createModelClient } from '../src/providers/create-model-client';
import { MaxxService, type MaxxRoles } from '../src/services/maxx/maxx.service';
import { systemRuntime } from '../src/services/ports/runtime';
import { toolModelYaml } from '../test/annotator-fixture';

const root = new URL('../../..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/tsx/dist/loader.mjs');
// Enough items that the last wave's tail (about one item's chain) is small against the run.
const CONVERSATIONS = Number(process.env.AGORA_BENCH_MAXX_CONVERSATIONS ?? 1200);

function startFake(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', tsx, join(root, 'packages/server/bench/fake-upstream.process.ts')], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = output.match(/ready (\d+)/)?.[1];
      if (port) resolve({ child, baseUrl: `http://127.0.0.1:${port}/v1` });
    });
    child.once('exit', (code) => reject(new Error(`fake upstream exited with ${code}`)));
  });
}

function roles(baseUrl: string, delay: number, run: string): MaxxRoles {
  const role = (name: string) => `maxx-${name}-${delay}`;
  const yaml = `models:\n${['writer', 'reviewer', 'critic', 'judge'].map((name) => toolModelYaml(`${role(name)}-${run}`, baseUrl, role(name))).join('')}`;
  const models = parseCatalogue(yaml, 'bench.yaml', {});
  const client = (name: string) => {
    const model = models.find((candidate) => candidate.entry.id === `${role(name)}-${run}`)!;
    return { id: model.entry.id, client: createModelClient(model, undefined) };
  };
  return {
    generator: client('writer'),
    reviewer: client('reviewer'),
    critic: client('critic'),
    judges: [client('judge')],
    stylist: client('writer'),
  };
}

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'agora-bench-maxx-'));
  const path = join(folder, 'store.db');
  execFileSync(
    process.execPath,
    ['--import', tsx, join(root, 'packages/server/bench/export-bench-worker.ts'), 'generate', path, String(CONVERSATIONS)],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const { child, baseUrl } = await startFake();
  const db = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(db);
  const store = createStore(db);
  try {
    // Zero latency: what the orchestration itself costs per item, in this process (the upstream's CPU is its own).
    const instant = new MaxxService(store, roles(baseUrl, 0, 'cpu'), {}, systemRuntime);
    const cpuItems = 100;
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    const cpuRun = await instant.run({ limit: cpuItems, concurrency: 8 });
    const cpu = process.cpuUsage(cpuBefore);
    const cpuWall = (performance.now() - wallBefore) / 1000;
    const cpuPerItem = (cpu.user + cpu.system) / 1000 / cpuRun.items;
    console.log(
      `zero-latency upstream: ${cpuRun.items} items (${cpuRun.kept} kept) in ${cpuWall.toFixed(2)} s, ${cpuRun.calls - cpuRun.cachedCalls} calls sent (${cpuRun.cachedCalls} shared or cached)`,
    );
    console.log(
      `  orchestration CPU per item ${cpuPerItem.toFixed(1)} ms (user ${(cpu.user / 1000 / cpuRun.items).toFixed(1)}, system ${(cpu.system / 1000 / cpuRun.items).toFixed(1)}), ${((cpu.user + cpu.system) / 1000 / (cpuRun.calls - cpuRun.cachedCalls)).toFixed(2)} ms per call sent`,
    );

    // 200 ms per request, 32 items at a time: the ideal is each item's chain of requests back to back.
    const concurrency = 32;
    const slowItems = Number(process.env.AGORA_BENCH_MAXX_ITEMS ?? 768);
    const slow = new MaxxService(store, roles(baseUrl, 200, 'throughput'), {}, systemRuntime);
    // The dry run's estimate first (it sends nothing), to set against what the run sends.
    const plan = await slow.plan({ limit: slowItems });
    const started = performance.now();
    const slowRun = await slow.run({ limit: slowItems, concurrency });
    const seconds = (performance.now() - started) / 1000;
    const sent = slowRun.requests;
    // The ideal of the concurrency limit: every request takes 200 ms and 32 are always in flight.
    const ideal = (sent * 0.2) / concurrency;
    console.log(
      `200 ms upstream, concurrency ${concurrency}: ${slowRun.items} items in ${seconds.toFixed(2)} s (start-up included) = ${(slowRun.items / seconds).toFixed(2)} items/s; ${(sent / slowRun.items).toFixed(2)} requests per item`,
    );
    console.log(
      `  ideal ${ideal.toFixed(2)} s (${(slowRun.items / ideal).toFixed(2)} items/s): ratio to the ideal ${(ideal / seconds).toFixed(3)}   goal: ≥ 0.9`,
    );
    console.log(
      `  dry run: ${plan.estimatedCalls} calls estimated, ${sent} requests sent: estimate / sent ${(plan.estimatedCalls / sent).toFixed(3)}   goal: within 10 %`,
    );
    const steps = [...new Set([...Object.keys(plan.estimatedCallsByStep), ...Object.keys(slowRun.requestsByStep)])].sort();
    console.log(
      `  by step (estimated / sent): ${steps.map((step) => `${step} ${plan.estimatedCallsByStep[step] ?? 0}/${slowRun.requestsByStep[step] ?? 0}`).join(', ')}`,
    );
    const records = await store.maxx.listItems(slow.runKey);
    const dropped = Object.entries(slowRun.dropped)
      .sort((left, right) => right[1] - left[1])
      .map(([reason, count]) => `${reason} ${count}`)
      .join(', ');
    console.log(`  rows: ${slowRun.kept} kept of ${slowRun.items}; dropped: ${dropped || 'none'}; unfinished ${slowRun.unfinished}`);
    for (const subset of ['arena-general', 'arena-both_bad', 'reactions']) {
      const ratios = records
        .filter((record) => record.subset === subset && record.row !== null && typeof record.row.rejected === 'string')
        .map((record) => String(record.row!.response_optimal).length / String(record.row!.rejected).length)
        .sort((left, right) => left - right);
      if (ratios.length > 0)
        console.log(
          `  ${subset}: median chosen/rejected length ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)} over ${ratios.length} rows`,
        );
    }
  } finally {
    await store.close();
    child.kill('SIGTERM');
    rmSync(folder, { recursive: true, force: true });
  }
}
