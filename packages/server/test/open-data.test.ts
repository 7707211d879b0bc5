import { mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { ArenaStatistics, PublishedDatasets } from '@agora/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { type Store, createStore } from '../src/db/unit-of-work';
import { DATASET_NAMES } from '../src/domain/datasets/export-columns';
import { exportModelFacts } from '../src/domain/datasets/export-model-facts';
import { ONLY_WHEN_FILLED } from '../src/adapters/dataset-files/dataset-builder';
import { DatasetExportService } from '../src/services/dataset-export.service';
import { type Seed, catalogue, seed } from './export-seeds';
import { type TestArena, startTestArena } from './test-arena';
import { DIALECTS } from './test-db';

/*
 * The datasets page's downloads and the statistics page's figures, over real HTTP on both stores:
 * the statistics are checked against the store's own counts, the downloads against a patient attacker.
 */

const choices = ['a', 'b', 'tie', 'both_bad', 'a', 'b', 'a'] as const;
/** Twelve conversations over three days: French (6), English (5) and one Lithuanian, below the published cell. */
const SEEDS: Seed[] = Array.from({ length: 12 }, (_, index) => ({
  name: `conversation ${index}`,
  languages: [index < 6 ? 'fr' : index < 11 ? 'en' : 'lt'],
  categories: index % 2 === 0 ? ['Education'] : ['Education', 'Sports'],
  ...(index % 4 === 3 ? {} : { vote: { choice: choices[index % choices.length]! } }),
  reactions: index % 3 === 0 ? [{ turn: 1, side: 'a' as const, value: 'like' as const }] : [],
  ...(index === 5 ? { annotation: 'pending' as const } : {}),
  ...(index === 6 ? { models: ['kestrix-8b', 'sollary-32b'] as [string, string] } : {}),
  at: `2026-11-0${1 + (index % 3)}T1${index % 10}:00:00.000Z`,
}));

describe.each(DIALECTS)('open data on $name', (dialect) => {
  let arena: TestArena;
  let store: Store;
  let out: string;
  const scratch = mkdtempSync(join(tmpdir(), 'agora-open-data-'));

  beforeAll(async () => {
    arena = await startTestArena(dialect, { environment: { AGORA_LIMIT_DOWNLOADS_PER_MINUTE_PER_ADDRESS: '40' } });
    store = createStore(openDatabase(arena.store.location));
    await seed(store, arena.store.location, SEEDS);
    out = mkdtempSync(join(tmpdir(), 'agora-open-data-export-'));
    const facts = exportModelFacts(catalogue(), { method: '0.9.1', zone: undefined });
    await new DatasetExportService(store.datasets, facts, { privateCohorts: [] }).export({
      outDir: out,
      formats: ['parquet', 'jsonl'],
      datasets: [...DATASET_NAMES],
    });
  });

  afterAll(async () => {
    await store?.close();
    await arena?.close();
    rmSync(out, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  const get = async <T>(path: string) => {
    const response = await fetch(`${arena.baseUrl}${path}`);
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  };

  it('gives the statistics the store counts, with rare languages summed into other', async () => {
    const { status, body } = await get<ArenaStatistics>('/api/v1/statistics');
    expect(status).toBe(200);
    const db = openDatabase(arena.store.location);
    const count = async (query: string) => Number((await sql<{ n: string | number }>`${sql.raw(query)}`.execute(db)).rows[0]!.n);
    try {
      expect(body.totals).toEqual({
        duels: await count('select count(*) as n from duels'),
        votes: await count('select count(*) as n from votes'),
        reactions: await count('select count(*) as n from reactions'),
      });
      for (const day of body.days) {
        expect(day.duels).toBe(await count(`select count(*) as n from duels where created_at like '${day.day}%'`));
        expect(day.votes).toBe(await count(`select count(*) as n from votes where created_at like '${day.day}%'`));
        expect(day.reactions).toBe(await count(`select count(*) as n from reactions where created_at like '${day.day}%'`));
      }
      for (const choice of body.choices)
        expect(choice.count).toBe(await count(`select count(*) as n from votes where choice = '${choice.name}'`));
      for (const model of body.models) {
        const wins = await count(
          `select count(*) as n from votes where (model_a = '${model.model}' and choice = 'a') or (model_b = '${model.model}' and choice = 'b')`,
        );
        expect(model.wins).toBe(wins);
        expect(model.votes).toBe(
          await count(`select count(*) as n from votes where model_a = '${model.model}' or model_b = '${model.model}'`),
        );
      }
    } finally {
      await db.destroy();
    }
    // And against the seeds themselves: 12 duels on 3 days, 9 votes, 4 reactions.
    expect(body.totals).toEqual({ duels: 12, votes: 9, reactions: 4 });
    expect(body.days.map((day) => day.day)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(body.choices).toEqual([
      { name: 'a', count: 3 },
      { name: 'b', count: 3 },
      { name: 'tie', count: 2 },
      { name: 'both_bad', count: 1 },
    ]);
    // Conversation 5 is not screened yet; Lithuanian (1) is below the cell of 5, French has 5 screened.
    expect(body.min_cell).toBe(5);
    expect(body.languages).toEqual([
      { name: 'en', count: 5 },
      { name: 'fr', count: 5 },
    ]);
    expect(body.languages_other).toBe(1);
    expect(body.topics).toEqual([
      { name: 'Education', count: 11 },
      { name: 'Sports', count: 5 },
    ]);
    expect(body.modes).toEqual([{ name: 'random', count: 12 }]);
    expect(body.models.find((model) => model.model === 'kestrix-8b')).toMatchObject({ votes: 1, wins: 1, losses: 0 });
    expect(JSON.stringify(body)).not.toMatch(/visitorhash|duelid|conversation \d/);
  });

  it('lists the public files of the last export with a preview, and serves them whole or by range', async () => {
    const { body } = await get<PublishedDatasets>('/api/v1/datasets');
    const exported = body.export!;
    expect(exported.files.length).toBeGreaterThan(0);
    expect(exported.files.every((file) => file.url !== null && !file.path.includes('gated'))).toBe(true);
    // The seeds have no turn verdicts: their two subsets are not written, nor previewed.
    expect(exported.preview.map((entry) => entry.dataset)).toEqual(DATASET_NAMES.filter((name) => !ONLY_WHEN_FILLED.has(name)));
    expect(exported.preview.every((entry) => entry.rows.length > 0 && entry.rows.length <= 5)).toBe(true);
    expect(JSON.stringify(exported)).not.toMatch(/visitor_id|visitorhash|duelid/);
    const votes = exported.files.find((file) => file.dataset === 'votes' && file.format === 'parquet' && file.language === 'fr')!;
    const response = await fetch(`${arena.baseUrl}${votes.url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.apache.parquet');
    expect(Number(response.headers.get('content-length'))).toBe(votes.bytes);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.equals(readFileSync(join(out, 'public', votes.path)))).toBe(true);
    const downloaded = join(scratch, 'votes.parquet');
    writeFileSync(downloaded, bytes);
    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const rows = (await duck.runAndReadAll(`select count(*) as n from read_parquet('${downloaded}')`)).getRowObjects();
    expect(Number(rows[0]!.n)).toBe(votes.rows);
    duck.closeSync();
    const ranged = await fetch(`${arena.baseUrl}${votes.url}`, { headers: { range: 'bytes=4-11' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 4-11/${votes.bytes}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(4, 12))).toBe(true);
    const head = await fetch(`${arena.baseUrl}${votes.url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBe(votes.bytes);
    expect((await head.arrayBuffer()).byteLength).toBe(0);
    const jsonl = exported.files.find((file) => file.format === 'jsonl')!;
    expect((await fetch(`${arena.baseUrl}${jsonl.url}`)).headers.get('content-type')).toBe('application/jsonl; charset=utf-8');
  });

  it('answers every attempt outside the public files with a JSON error', async () => {
    const exported = (await get<PublishedDatasets>('/api/v1/datasets')).body.export!;
    const base = `/api/v1/datasets/${exported.id}/files`;
    const file = exported.files.find((entry) => entry.dataset === 'votes' && entry.format === 'parquet')!;
    const attacks: [string, number][] = [
      [`${base}/../../gated/votes/${file.language}/train-00000.parquet`, 404],
      [`${base}/..%2f..%2fgated%2fvotes%2f${file.language}%2ftrain-00000.parquet`, 404],
      [`${base}/%2e%2e/%2e%2e/gated/votes/${file.language}/train-00000.parquet`, 404],
      [`${base}/%2e%2e%2fgated%2fREADME.md`, 404],
      [`${base}/${file.path}%00`, 404],
      [`${base}/${file.path}%00.txt`, 404],
      [`${base}/README.md`, 404],
      [`${base}/%2fetc%2fpasswd`, 404],
      [`${base}/votes`, 404],
      [`${base}/`, 404],
      [`${base}/${file.path.replace('votes/', '../gated/votes/')}`, 404],
      [`/api/v1/datasets/0123456789abcdef/files/${file.path}`, 404],
      [`/api/v1/datasets/${exported.id}%2e%2e/files/${file.path}`, 404],
      [`${base}/%E0%A4%A`, 400],
    ];
    for (const [path, status] of attacks) {
      const answer = await rawGet(arena.baseUrl, path);
      expect({ path, status: answer.status }).toEqual({ path, status });
      expect(JSON.parse(answer.body)).toMatchObject({ error: { code: expect.any(String) } });
      expect(answer.body).not.toMatch(/PAR1|visitor_id/);
    }
    const unsatisfiable = await fetch(`${arena.baseUrl}${file.url}`, { headers: { range: `bytes=${file.bytes + 10}-` } });
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers.get('content-range')).toBe(`bytes */${file.bytes}`);
    expect(await unsatisfiable.json()).toMatchObject({ error: { code: 'range_not_satisfiable' } });
  });

  it('refuses a listed file replaced by a link out of the public folder', async () => {
    const exported = (await get<PublishedDatasets>('/api/v1/datasets')).body.export!;
    const file = exported.files.find((entry) => entry.dataset === 'reactions' && entry.format === 'parquet')!;
    const listed = join(out, 'public', file.path);
    unlinkSync(listed);
    symlinkSync(join(out, 'gated', file.path), listed);
    const answer = await rawGet(arena.baseUrl, file.url!);
    expect(answer.status).toBe(404);
    expect((await get<PublishedDatasets>('/api/v1/datasets')).body.export!.files.find((entry) => entry.path === file.path)!.url).toBeNull();
  });

  it('limits downloads per address, with the JSON error and Retry-After', async () => {
    const file = (await get<PublishedDatasets>('/api/v1/datasets')).body.export!.files.find((entry) => entry.format === 'jsonl')!;
    // The tests above spent some of the 40 of this minute: the refusal comes within 40 more.
    let refused: Response | undefined;
    for (let attempt = 0; attempt < 41 && !refused; attempt++) {
      const answer = await fetch(`${arena.baseUrl}${file.url}`);
      if (answer.status === 429) refused = answer;
      else await answer.arrayBuffer();
    }
    expect(refused?.status).toBe(429);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused!.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // Reads are counted apart: the list still answers.
    expect((await fetch(`${arena.baseUrl}/api/v1/datasets`)).status).toBe(200);
  });
});

/** A GET with the path sent byte for byte (fetch would resolve `..` before sending). */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end();
  });
}
