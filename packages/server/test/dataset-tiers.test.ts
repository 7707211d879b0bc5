import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { type Store, createStore } from '../src/db/unit-of-work';
import { exportModelFacts } from '../src/domain/datasets/export-model-facts';
import { DATASET_NAMES } from '../src/domain/datasets/export-columns';
import { ComparIaImportService } from '../src/services/comparia-import.service';
import { DatasetExportService, type DatasetExportResult } from '../src/services/dataset-export.service';
import { type Seed, catalogue, duelId, seed, visitorHash } from './export-seeds';
import { cardHeader, filesUnder, readJsonl, readParquetRows, subsetJsonl } from './export-files';
import { loadWithDatasets, pythonWithDatasets } from './python-datasets';
import { runAgora } from './run-agora';
import { databaseUrl } from './store-dump';
import { DIALECTS, type TestStore } from './test-db';

/**
 * Issue 29, point 1: `agora export --out DIR` writes two folders, `DIR/public/` and `DIR/gated/`, each
 * one Hugging Face dataset. The public one has compar:IA's three tables without what links a row to a
 * person or a moment (docs/decisions/0008), and each card's counts are those of its files. The store
 * holds arena conversations and compar:IA rows, half screened by this arena, half imported with
 * `--trust-source`; the compar:IA rows are given distinctive visitor ids, session hashes, places and
 * generation ids holding the request's second, so that a byte of any of them is found wherever it is.
 */

const SEEDS: Seed[] = [
  {
    name: 'clean voted',
    prompts: ['clean voted', 'and then?'],
    vote: { choice: 'a', tagsA: ['useful'], tagsB: ['incorrect'] },
    reactions: [
      { turn: 1, side: 'b', value: 'dislike', tags: ['superficial'] },
      { turn: 2, side: 'a', value: 'like' },
    ],
    at: '2026-11-01T10:17:00.000Z',
  },
  { name: 'flagged', pii: true, vote: { choice: 'a' }, at: '2026-11-01T11:00:00.000Z' },
  { name: 'same day later', vote: { choice: 'b' }, reactions: [{ turn: 1, side: 'a', value: 'like' }], at: '2026-11-01T11:42:09.123Z' },
  { name: 'same day evening', vote: { choice: 'both_bad' }, at: '2026-11-01T21:05:00.000Z' },
  {
    name: 'occitan cooking',
    languages: ['oc', 'fr'],
    categories: ['cooking'],
    vote: { choice: 'b', tagsB: ['useful', 'complete'] },
    at: '2026-11-02T08:00:00.000Z',
  },
  { name: 'proprietary model', models: ['kestrix-8b', 'sollary-32b'], vote: { choice: 'tie' }, at: '2026-11-03T09:30:00.000Z' },
];

/** compar:IA's conversations screened by this arena (`agora postprocess`) and those taken as screened (`--trust-source`). */
const SCREENED_HERE = ['p1', 'p2'];
const TRUSTED = ['p3', 'p4'];

const fixtures = fileURLToPath(new URL('./fixtures/comparia/', import.meta.url));
const WITHHELD = ['visitor_id', 'session_hash'];
const TABLES = ['conversations', 'votes', 'reactions'] as const;
const CITY = 'Montluçon-les-Bains';

/**
 * The fixture's rows of some conversations, with values that a byte search can find: visitor ids and
 * session hashes of 20 characters and more, generation ids holding the epoch second of the request
 * (as OpenRouter's do), and a place on reactions.
 */
function distinctiveRows(table: (typeof TABLES)[number], pairs: readonly string[]): Record<string, unknown>[] {
  return readJsonl(join(fixtures, `${table}.jsonl`))
    .filter((row) => pairs.includes(row.conversation_pair_id as string))
    .map((row) => {
      const second = Math.floor((row.timestamp as number) / 1000);
      const messages = (list: Record<string, any>[]) =>
        list.map((message, index) =>
          message.metadata ? { ...message, metadata: { ...message.metadata, generation_id: `gen-${second - index}-${index}` } } : message,
        );
      return {
        ...row,
        visitor_id: `visitor-${String(row.visitor_id ?? row.conversation_pair_id)}-5e1f0a9d`,
        session_hash: `session-${String(row.session_hash)}-3c9b7e21d4`,
        conversation_a: messages(row.conversation_a as Record<string, any>[]),
        conversation_b: messages(row.conversation_b as Record<string, any>[]),
        ...(table === 'reactions' ? { country: 'France', city: CITY } : {}),
      };
    });
}

/** A file's bytes as a reader sees them: the text of JSONL and cards, the decoded values of Parquet (days as `YYYY-MM-DD`). */
async function readableText(path: string): Promise<string> {
  if (!path.endsWith('.parquet')) return readFileSync(path, 'utf8');
  // A replacer sees a Date after its toJSON: read the value itself from its holder.
  return JSON.stringify(await readParquetRows(path), function (this: Record<string, unknown>, key: string, value: unknown) {
    const original = this[key];
    if (typeof original === 'bigint') return original.toString();
    if (original instanceof Date)
      return original.getTime() % 86_400_000 === 0 ? original.toISOString().slice(0, 10) : original.toISOString();
    return value;
  });
}

/**
 * Times finer than a day, as text: ISO-8601 and clock times, epoch milliseconds and seconds (of the
 * years 2017 to 2033), not inside a longer run of letters and digits (a hex id may hold ten digits in a row).
 */
const TIME_PATTERNS: Readonly<Record<string, RegExp>> = {
  'time of day': /T\d\d:\d\d|(?<![0-9a-z])\d\d:\d\d:\d\d(?![0-9a-z])/i,
  'epoch milliseconds': /(?<![0-9a-z])1[5-9]\d{11}(?![0-9a-z])/i,
  'epoch seconds': /(?<![0-9a-z])1[5-9]\d{8}(?![0-9a-z])/i,
};

/** What links a row to a person or a moment, by kind, in one file: raw bytes, readable text and Parquet types. */
async function linksIn(path: string, secrets: Readonly<Record<string, readonly string[]>>): Promise<Set<string>> {
  const found = new Set<string>();
  const bytes = readFileSync(path);
  const text = await readableText(path);
  for (const [kind, values] of Object.entries(secrets))
    if (values.some((value) => bytes.includes(value) || text.includes(value))) found.add(kind);
  for (const [kind, pattern] of Object.entries(TIME_PATTERNS)) if (pattern.test(text)) found.add(kind);
  if (path.endsWith('.parquet')) {
    const { schema } = await parquetMetadataAsync(await asyncBufferFromFile(path));
    if (schema.some((element) => element.converted_type?.startsWith('TIMESTAMP') || element.logical_type?.type === 'TIMESTAMP'))
      found.add('timestamp column');
  }
  return found;
}

describe.each(DIALECTS)('agora export: a public and a gated dataset ($name)', (dialect) => {
  let testStore: TestStore;
  let store: Store;
  let out: string;
  let result: DatasetExportResult;
  const folder = mkdtempSync(join(tmpdir(), 'agora-tiers-'));
  const secrets: Record<string, string[]> = {};

  beforeAll(async () => {
    testStore = await dialect.create();
    const db = openDatabase(testStore.location);
    await migrateToLatest(db);
    store = createStore(db);
    await seed(store, testStore.location, SEEDS);
    // A fixed salt: the public ids, hence the order of the public rows, are the same at every run.
    await store.datasets.visitorSalt(() => '5a17'.repeat(16));
    const importGroup = async (name: string, pairs: readonly string[], trustSource: boolean) => {
      const files = Object.fromEntries(
        TABLES.map((table) => {
          const path = join(folder, `${name}-${table}.jsonl`);
          writeFileSync(
            path,
            `${distinctiveRows(table, pairs)
              .map((row) => JSON.stringify(row))
              .join('\n')}\n`,
          );
          return [table, path];
        }),
      );
      await new ComparIaImportService(store).importFiles(files, { trustSource });
    };
    await importGroup('screened', SCREENED_HERE, false);
    // This arena's own screening of the imported conversations: the rules layer, as a server's queue would run it.
    const screened = await runAgora(['postprocess', '--no-model'], '', { DATABASE_URL: databaseUrl(testStore.location) });
    expect(screened.code, screened.stderr).toBe(0);
    await importGroup('trusted', TRUSTED, true);
    const rows = TABLES.flatMap((table) => distinctiveRows(table, [...SCREENED_HERE, ...TRUSTED]));
    const messages = rows.flatMap((row) => [...(row.conversation_a as any[]), ...(row.conversation_b as any[])]);
    secrets['imported visitor id'] = [...new Set(rows.map((row) => row.visitor_id as string))];
    secrets['session hash'] = [...new Set(rows.map((row) => row.session_hash as string))];
    secrets['generation id'] = [...new Set(messages.flatMap((message) => (message.metadata ? [message.metadata.generation_id] : [])))];
    secrets.place = [CITY];
    secrets['arena visitor hash'] = SEEDS.map(visitorHash);
    secrets['duel id'] = SEEDS.map(duelId);
    out = join(folder, 'out');
    const facts = exportModelFacts(catalogue(), { method: '0.9.1', zone: undefined });
    // Windows of 4 rows: the shuffle works within each, and the rows of a window span days.
    result = await new DatasetExportService(store.datasets, facts, { privateCohorts: [], shuffleRows: 4 }).export({
      outDir: out,
      formats: ['parquet', 'jsonl'],
      datasets: [...DATASET_NAMES],
    });
    // The arena visitors' public ids, as the gated dataset publishes them.
    secrets['arena visitor id'] = subsetJsonl(out, 'conversations', 'gated')
      .filter((row) => row.source === 'arena')
      .map((row) => row.visitor_id as string);
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    await testStore?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('writes DIR/public and DIR/gated, neither inside the other, each with its own card', () => {
    const [publicFolder, gatedFolder] = [join(out, 'public'), join(out, 'gated')];
    expect(relative(publicFolder, gatedFolder)).toBe('../gated');
    expect(filesUnder(out).every((path) => path.startsWith(`${publicFolder}/`) || path.startsWith(`${gatedFolder}/`))).toBe(true);
    expect(result.cards).toEqual([
      { tier: 'public', path: join(publicFolder, 'README.md') },
      { tier: 'gated', path: join(gatedFolder, 'README.md') },
    ]);
    for (const file of result.files) expect(file.path.startsWith(`${join(out, file.tier)}/`), file.path).toBe(true);
    // Whatever is uploaded from the public folder asks for no access, and no data file of it has a gated column.
    expect(readFileSync(join(publicFolder, 'README.md'), 'utf8')).not.toContain('extra_gated');
    expect(readFileSync(join(gatedFolder, 'README.md'), 'utf8')).toContain('extra_gated_fields:');
    const dataFiles = (tier: string) => filesUnder(join(out, tier)).filter((path) => !path.endsWith('README.md'));
    expect(dataFiles('public').filter((path) => readFileSync(path).includes('visitor_id'))).toEqual([]);
    expect(dataFiles('gated').every((path) => readFileSync(path).includes('visitor_id'))).toBe(true);
  });

  it("holds compar:IA's three tables in both: the public one with exactly the gated columns but visitor_id and session_hash, the day for the time", async () => {
    const duckdb = await DuckDBInstance.create(':memory:');
    const connection = await duckdb.connect();
    const columnsOf = async (path: string) =>
      (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path}')`))
        .getRowObjectsJS()
        .map((row) => [row.column_name as string, row.column_type as string]);
    const publicCard = readFileSync(join(out, 'public', 'README.md'), 'utf8');
    try {
      for (const table of TABLES) {
        const gated = await columnsOf(join(out, 'gated', table, '*', 'train-*.parquet'));
        const published = await columnsOf(join(out, 'public', table, '*', 'train-*.parquet'));
        expect(gated.map(([name]) => name)).toEqual(expect.arrayContaining([...WITHHELD, 'timestamp']));
        expect(published, table).toEqual(
          gated.filter(([name]) => !WITHHELD.includes(name!)).map(([name, type]) => [name, name === 'timestamp' ? 'DATE' : type]),
        );
        expect(gated.find(([name]) => name === 'timestamp')![1]).toBe('TIMESTAMP WITH TIME ZONE');
        // JSONL has the same columns, and the card documents exactly these.
        for (const row of subsetJsonl(out, table, 'public')) expect(Object.keys(row)).toEqual(published.map(([name]) => name));
        const documented = publicCard
          .split(`\n### ${table}\n`)[1]!
          .split('\n\n')[0]!
          .trim()
          .split('\n')
          .slice(2)
          .map((line) => /^\| `([^`]+)`/.exec(line)![1]);
        expect(documented, table).toEqual(published.map(([name]) => name));
      }
    } finally {
      connection.closeSync();
      duckdb.closeSync();
    }
  });

  it('has no visitor id, session hash, place, generation id or time finer than a day in any byte of any public file; the gated files have them all', async () => {
    expect(Object.values(secrets).every((values) => values.length > 0)).toBe(true);
    // The patterns find what they look for, in the shapes the stores and compar:IA's files give times.
    for (const [kind, example] of [
      ['time of day', '"2026-11-01T10:17:00.000Z"'],
      ['time of day', 'at 10:17:00 UTC'],
      ['epoch milliseconds', '"timestamp":1740823200123,'],
      ['epoch seconds', '"gen-1740823200-0"'],
    ] as const)
      expect(TIME_PATTERNS[kind]!.test(example), example).toBe(true);
    expect(Object.values(TIME_PATTERNS).some((pattern) => pattern.test('"2026-11-01" a1740823200123b 9f1740823200c'))).toBe(false);
    const publicFiles = filesUnder(join(out, 'public'));
    expect(publicFiles.length).toBeGreaterThan(20);
    for (const path of publicFiles) expect([...(await linksIn(path, secrets))], relative(out, path)).toEqual([]);
    // The same search finds each of them in the gated files (it can fail), and duel ids and visitor hashes nowhere.
    const gated = new Set<string>();
    for (const path of filesUnder(join(out, 'gated'))) for (const kind of await linksIn(path, secrets)) gated.add(kind);
    expect([...gated].sort()).toEqual(
      [
        'arena visitor id',
        'epoch seconds',
        'generation id',
        'imported visitor id',
        'place',
        'session hash',
        'time of day',
        'timestamp column',
      ].sort(),
    );
  });

  it('publishes the same rows in both, the public ones without what links them, in an order that is not their time order', () => {
    const day = (time: string) => new Date(time).toISOString().slice(0, 10);
    for (const table of TABLES) {
      const gated = subsetJsonl(out, table, 'gated');
      const published = subsetJsonl(out, table, 'public');
      expect(published.map((row) => row.id).sort(), table).toEqual(gated.map((row) => row.id).sort());
      for (const row of gated) {
        const expected: Record<string, unknown> = { ...row, timestamp: day(row.timestamp as string) };
        for (const name of WITHHELD) delete expected[name];
        if (table === 'reactions') Object.assign(expected, { country: null, city: null });
        for (const side of ['conversation_a', 'conversation_b'])
          expected[side] = (row[side] as Record<string, any>[]).map((message) =>
            message.metadata ? { ...message, metadata: { ...message.metadata, generation_id: null } } : message,
          );
        expect(
          published.find((candidate) => candidate.id === row.id),
          `${table} ${String(row.id)}`,
        ).toEqual(expected);
      }
    }
    // French conversations span three days in the gated files' time order; the public files have them in another order.
    const french = (tier: 'public' | 'gated') => readJsonl(join(out, tier, 'conversations', 'fr', 'train.jsonl')).map((row) => row.id);
    expect(french('gated').length).toBeGreaterThan(4);
    expect(french('public')).not.toEqual(french('gated'));
  });

  it('counts in each card what its files hold, config by config, and DuckDB reads every config', async () => {
    const duckdb = await DuckDBInstance.create(':memory:');
    const connection = await duckdb.connect();
    try {
      for (const card of result.cards) {
        const header = cardHeader(readFileSync(card.path, 'utf8'));
        expect(header.configs.filter((config) => config.default === true).map((config) => config.config_name)).toEqual(['conversations']);
        expect(header.dataset_info.map((info) => info.config_name)).toEqual(header.configs.map((config) => config.config_name));
        for (const config of header.configs) {
          const [files] = config.data_files;
          const [row] = (
            await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${join(out, card.tier, files!.path)}')`)
          ).getRowObjectsJS();
          const counted = header.dataset_info.find((info) => info.config_name === config.config_name)!.splits[0]!.num_examples;
          expect(row!.n, `${card.tier} ${config.config_name}`).toBe(counted);
          expect(counted, `${card.tier} ${config.config_name}`).toBeGreaterThan(0);
        }
      }
    } finally {
      connection.closeSync();
      duckdb.closeSync();
    }
  });

  it('says in each card how many imported conversations this arena screened and how many were taken as screened', () => {
    for (const card of result.cards)
      expect(readFileSync(card.path, 'utf8')).toContain(
        `- Imported conversations (4 from \`comparia\`: ${SCREENED_HERE.length} screened by this arena like its own, ${TRUSTED.length} taken as screened by their source).`,
      );
  });

  it('loads each folder with Hugging Face datasets: the default config, every subset and every language', (context) => {
    const python = pythonWithDatasets();
    if ('unavailable' in python) {
      console.warn(`Hugging Face datasets not loaded: ${python.unavailable}`);
      context.skip();
      return;
    }
    for (const card of result.cards) {
      const header = cardHeader(readFileSync(card.path, 'utf8'));
      const rows = Object.fromEntries(header.dataset_info.map((info) => [info.config_name, info.splits[0]!.num_examples]));
      const names = header.configs.map((config) => config.config_name);
      const loaded = loadWithDatasets(python.python, join(out, card.tier), ['default', ...names]);
      expect(loaded.default, card.tier).toEqual(loaded.conversations);
      for (const name of names) expect(loaded[name]!.rows, `${card.tier} ${name}`).toBe(rows[name]);
      expect(loaded.conversations!.columns.includes('visitor_id'), card.tier).toBe(card.tier === 'gated');
    }
  }, 300_000);
});
