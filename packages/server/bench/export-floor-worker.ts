/**
 * Child process of the export benchmark: `floor DB OUT` measures what any export of the same rows
 * with the same libraries must spend (issue 35, item 5), in two timed parts:
 *  - **read**: the columns the export reads, straight from better-sqlite3 (`iterate`, no Kysely, no
 *    paging, no row objects of ours), every value touched;
 *  - **encode**: every Parquet file the export wrote (both tiers), read back untimed, then written
 *    again with hyparquet-writer from its own schema, row groups and codec (Brotli at quality 1):
 *    the Dremel walk, UTF-8 encoding, page building and compression of exactly the rows we publish.
 * Prints one JSON line: seconds and CPU seconds of each part. The floor leaves out everything that
 * is ours: privacy screening, building rows, hashing ids, the cards.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import SqliteDatabase from 'better-sqlite3';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';

/** The same queries' columns as db/repositories/dataset.repository.ts reads for an export. */
const READS = [
  `SELECT d.id, d.source, d.external_id, d.visitor_hash, d.mode, d.model_a, d.model_b, d.chosen_models, d.created_at, d.source_meta,
          a.turns_annotated, a.languages, a.message_languages, a.categories, a.capabilities, a.keywords, a.short_summary, a.model_status, a.pii_rule_kinds
     FROM duels d CROSS JOIN conversation_annotations a WHERE a.duel_id = d.id ORDER BY d.created_at, d.id`,
  `SELECT t.duel_id, t.turn, t.prompt, s.side, s.model_id, s.text, s.reasoning, s.output_tokens, s.duration_ms, s.source_meta
     FROM turns t JOIN turn_sides s ON s.duel_id = t.duel_id AND s.turn = t.turn WHERE t.status = 'complete'`,
  'SELECT duel_id, choice, tags_a, tags_b, comment_a, comment_b, created_at, source_meta FROM votes',
  'SELECT duel_id, turn, side, model_id, value, tags, comment, created_at, source_meta FROM reactions',
  'SELECT duel_id, turn, choice, source_id, created_at FROM turn_verdicts',
];

interface Timed {
  seconds: number;
  cpuSeconds: number;
}

async function timed(work: () => Promise<void> | void): Promise<Timed> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await work();
  const used = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6 };
}

function readFloor(path: string): { touched: number } {
  const db = new SqliteDatabase(path, { readonly: true });
  let touched = 0;
  for (const sql of READS)
    for (const row of db.prepare(sql).raw().iterate() as Iterable<unknown[]>)
      for (const value of row) touched += typeof value === 'string' ? value.length : 1;
  db.close();
  return { touched };
}

/** hyparquet-writer carries its own copy of hyparquet's types: the same schema elements. */
type WriterSchema = ConstructorParameters<typeof ParquetWriter>[0]['schema'];

const brotli = (input: Uint8Array): Uint8Array =>
  brotliCompressSync(input, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 1, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: input.length } });

const parquetFiles = (out: string): string[] =>
  readdirSync(out, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.parquet'))
    .map((name) => join(out, name))
    .sort();

/** One file's rows back in memory, untimed, with what its writer needs to write them again. */
async function loadFile(path: string) {
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const rows = (await parquetReadObjects({ file, metadata, compressors })) as Record<string, unknown>[];
  return { metadata, rows, columns: topLevelColumns(metadata.schema) };
}

interface Element {
  name: string;
  num_children?: number;
  type?: string;
}

/** The root's direct children in Parquet's flattened, depth-first schema: the columns of a row, nested or text. */
function topLevelColumns(schema: Element[]): { name: string; nested: boolean; text: boolean }[] {
  const columns: { name: string; nested: boolean; text: boolean }[] = [];
  for (let position = 1; position < schema.length; position = afterSubtree(schema, position)) {
    const element = schema[position]!;
    const nested = (element.num_children ?? 0) > 0;
    // A list of strings is nested too; a flat BYTE_ARRAY is text.
    columns.push({ name: element.name, nested: nested && !isStringList(schema, position), text: element.type === 'BYTE_ARRAY' || nested });
  }
  return columns;
}

/** `strings` columns (a LIST of BYTE_ARRAY): the export's writer gives them no statistics, but tries a dictionary. */
function isStringList(schema: Element[], position: number): boolean {
  const leaf = schema[position + 2];
  return (
    (schema[position]!.num_children ?? 0) === 1 &&
    (schema[position + 1]?.num_children ?? 0) === 1 &&
    leaf?.type === 'BYTE_ARRAY' &&
    !leaf.num_children
  );
}

function afterSubtree(schema: Element[], position: number): number {
  let next = position + 1;
  for (let child = 0; child < (schema[position]!.num_children ?? 0); child++) next = afterSubtree(schema, next);
  return next;
}

async function encodeFloor(out: string): Promise<Timed & { rows: number; files: number }> {
  const total: Timed = { seconds: 0, cpuSeconds: 0 };
  let rows = 0;
  const files = parquetFiles(out);
  for (const path of files) {
    const { metadata, rows: loaded, columns } = await loadFile(path);
    rows += loaded.length;
    const groups = metadata.row_groups.map((group) => Number(group.num_rows));
    const part = await timed(() => {
      const writer = new ParquetWriter({
        writer: new ByteWriter(),
        schema: metadata.schema as WriterSchema,
        codec: 'BROTLI',
        compressors: { BROTLI: brotli },
      });
      let start = 0;
      for (const size of groups.length > 0 ? groups : [0]) {
        const slice = loaded.slice(start, start + size);
        start += size;
        const columnData = columns.map(({ name, nested, text }) => ({
          name,
          data: slice.map((row) => row[name] ?? null),
          // As the export's writer does (adapters/dataset-files/dataset-writers.ts): messages without a dictionary trial, no text statistics.
          encoding: nested ? ('PLAIN' as const) : undefined,
          statistics: !nested && !text,
        }));
        void writer.write({ columnData, rowGroupSize: Math.max(1, size) });
      }
      void writer.finish();
    });
    total.seconds += part.seconds;
    total.cpuSeconds += part.cpuSeconds;
  }
  return { ...total, rows, files: files.length };
}

const [command, path, out] = process.argv.slice(2);
if (command !== 'floor' || !path || !out) throw new Error('usage: export-floor-worker floor DB OUT');
let touched = 0;
const read = await timed(() => {
  touched = readFloor(path).touched;
});
const encode = await encodeFloor(out);
process.stdout.write(
  `${JSON.stringify({ read, encode: { seconds: encode.seconds, cpuSeconds: encode.cpuSeconds }, rows: encode.rows, files: encode.files, touched })}\n`,
);
