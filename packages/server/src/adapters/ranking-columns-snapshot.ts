/*
 * The live leaderboard's kept vote columns as a file, so that a restart catches up from the changes
 * since the snapshot instead of reading every vote again (docs/operations.md#leaderboard-snapshot).
 *
 * Layout: a 128-byte header (magic, format version, the store's ranking epoch, the read's stamps,
 * the body's length and SHA-256), then the body: a JSON part (counters, names, the rare categories,
 * the sections' list) and the typed arrays, each starting on a multiple of 8 bytes so that a reader
 * maps them in place. Written to a temporary file, synced, renamed over the old one, and the folder
 * synced: a crash leaves the old snapshot or the new one, never half of one under the name.
 */
import { createHash } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import type { VoteColumnsState } from '../domain/ranking/vote-columns-state';
import { STATE_COLUMNS } from '../domain/ranking/vote-columns-state';

const MAGIC = 'AGORAKVC';
/** Bumped whenever the layout or the meaning of a column changes: a snapshot of another version is never read. */
export const COLUMNS_SNAPSHOT_VERSION = 1;
const HEADER_BYTES = 128;
/** Bytes per write: the event loop turns between them (a snapshot of millions of votes is hundreds of MB). */
const CHUNK_BYTES = 4 << 20;

/** What a snapshot says of the read it keeps (services/leaderboard-columns-snapshot.ts). */
export interface ColumnsSnapshotHeader {
  /** The store's ranking epoch when the columns were read in full. */
  epoch: number;
  /** When the last read started (ms): the next refresh reads the changes since then, less the margin. */
  readFrom: number;
  /** When the columns were read in full (ms): the periodic full reload counts from it. */
  loadedAt: number;
  /** Distinct duels merged by a 64-bit key collision in the full read. */
  merged: number;
}

const TYPES = { Uint8Array, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array } as const;
type TypeName = keyof typeof TYPES;
type Typed = Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;

const metaSchema = z.object({
  counts: z.object({ size: z.number().int().min(0), unkeyed: z.number().int().min(0), erased: z.number().int().min(0) }),
  names: z.object({
    models: z.array(z.string()),
    languages: z.array(z.string()),
    modes: z.array(z.string()),
    categories: z.array(z.string()),
  }),
  categoryOverflow: z.array(z.tuple([z.number().int(), z.array(z.number().int().min(0))])),
  sections: z.array(
    z.object({ name: z.string(), type: z.enum(Object.keys(TYPES) as [TypeName, ...TypeName[]]), length: z.number().int().min(0) }),
  ),
});

/** The typed arrays of a state, by section name, in the order they are written. */
function sectionsOf(state: VoteColumnsState): [string, Typed][] {
  return [
    ...(['duels', 'visitors', 'clients', 'clusters'] as const).map((name): [string, Typed] => [`keys.${name}`, state.keys[name]]),
    ['energySums', state.energySums],
    ...STATE_COLUMNS.map(({ name }): [string, Typed] => [`columns.${name}`, state.columns[name]]),
  ];
}

const padded = (bytes: number) => Math.ceil(bytes / 8) * 8;

/** A snapshot encoded: its header and its body as pieces (the columns' own memory, no copy), in order. */
export interface EncodedColumnsSnapshot {
  head: Buffer;
  pieces: Uint8Array[];
  /** Header and body together. */
  bytes: number;
}

/** Encodes a state with its header (the same bytes whether they go to a file or to rows of a table). */
export async function encodeColumnsSnapshot(header: ColumnsSnapshotHeader, state: VoteColumnsState): Promise<EncodedColumnsSnapshot> {
  const sections = sectionsOf(state);
  const meta = Buffer.from(
    JSON.stringify({
      counts: state.counts,
      names: state.names,
      categoryOverflow: state.categoryOverflow,
      sections: sections.map(([name, values]) => ({ name, type: values.constructor.name, length: values.length })),
    }),
  );
  const hash = createHash('sha256');
  const pieces: Uint8Array[] = [];
  let body = 0;
  for (const bytes of [meta, ...sections.map(([, values]) => new Uint8Array(values.buffer, values.byteOffset, values.byteLength))]) {
    const padding = new Uint8Array(padded(body + bytes.length) - body - bytes.length);
    for (const piece of [bytes, padding]) {
      // Hashed a chunk at a time, the event loop turning between them (hundreds of MB at millions of votes).
      for (let from = 0; from < piece.length; from += CHUNK_BYTES) {
        hash.update(piece.subarray(from, from + CHUNK_BYTES));
        await new Promise((resolve) => setImmediate(resolve));
      }
      pieces.push(piece);
      body += piece.length;
    }
  }
  return { head: headerBytes(header, state.counts.size, body, meta.length, hash.digest()), pieces, bytes: HEADER_BYTES + body };
}

/** The encoded bytes, header first, in parts of at most `partBytes` (copied: each part is its own buffer). */
export function* columnsSnapshotParts(encoded: EncodedColumnsSnapshot, partBytes = CHUNK_BYTES): Generator<Buffer> {
  let part = Buffer.alloc(Math.min(partBytes, encoded.bytes));
  let filled = 0;
  let left = encoded.bytes;
  for (const piece of [encoded.head, ...encoded.pieces])
    for (let from = 0; from < piece.length;) {
      const taken = Math.min(piece.length - from, part.length - filled);
      part.set(piece.subarray(from, from + taken), filled);
      [from, filled, left] = [from + taken, filled + taken, left - taken];
      if (filled === part.length && left > 0) {
        yield part;
        [part, filled] = [Buffer.alloc(Math.min(partBytes, left)), 0];
      }
    }
  yield part;
}

/** Writes the snapshot atomically (a temporary file beside it, synced, renamed, the folder synced). */
export async function writeColumnsSnapshot(path: string, header: ColumnsSnapshotHeader, state: VoteColumnsState): Promise<void> {
  const encoded = await encodeColumnsSnapshot(header, state);
  const temporary = `${path}.tmp`;
  const file = await open(temporary, 'w');
  try {
    let at = HEADER_BYTES;
    for (const piece of encoded.pieces)
      for (let from = 0; from < piece.length; from += CHUNK_BYTES) {
        const chunk = piece.subarray(from, Math.min(piece.length, from + CHUNK_BYTES));
        await file.write(chunk, 0, chunk.length, at);
        at += chunk.length;
      }
    await file.write(encoded.head, 0, HEADER_BYTES, 0);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, path);
  const folder = await open(dirname(path), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

function headerBytes(header: ColumnsSnapshotHeader, rows: number, bodyBytes: number, metaBytes: number, digest: Buffer): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES);
  bytes.write(MAGIC, 0, 'latin1');
  bytes.writeUInt32LE(COLUMNS_SNAPSHOT_VERSION, 8);
  bytes.writeUInt32LE(metaBytes, 12);
  [header.epoch, header.readFrom, header.loadedAt, header.merged, rows, bodyBytes].forEach((value, index) =>
    bytes.writeDoubleLE(value, 16 + 8 * index),
  );
  digest.copy(bytes, 64);
  return bytes;
}

/** A snapshot read back: its header and state, or why it cannot be trusted. */
export type ColumnsSnapshotRead = { header: ColumnsSnapshotHeader; state: VoteColumnsState } | { rejected: string };

/** Reads a snapshot whole and checks it (magic, version, length, SHA-256, layout); undefined when there is none. */
export async function readColumnsSnapshot(path: string): Promise<ColumnsSnapshotRead | undefined> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    const size = (await file.stat()).size;
    // Its own buffer, starting at 0: every section's offset is then a multiple of its element size.
    bytes = new Uint8Array(new ArrayBuffer(size));
    for (let at = 0; at < size;) {
      const { bytesRead } = await file.read(bytes, at, Math.min(CHUNK_BYTES, size - at), at);
      if (bytesRead === 0) break;
      at += bytesRead;
    }
  } finally {
    await file.close();
  }
  return decodeColumnsSnapshot(bytes);
}

/** Checks and decodes encoded bytes (a file's, or a table's parts put end to end); `bytes` must start its own buffer. */
export function decodeColumnsSnapshot(given: Uint8Array<ArrayBuffer>): ColumnsSnapshotRead {
  // Every section's offset is a multiple of its element size from the buffer's start.
  const bytes = given.byteOffset === 0 ? given : new Uint8Array(given);
  if (bytes.length < HEADER_BYTES) return { rejected: 'shorter than its header' };
  const head = Buffer.from(bytes.buffer, 0, HEADER_BYTES);
  if (head.toString('latin1', 0, 8) !== MAGIC) return { rejected: 'not a columns snapshot' };
  const version = head.readUInt32LE(8);
  if (version !== COLUMNS_SNAPSHOT_VERSION) return { rejected: `format version ${version}, this server reads ${COLUMNS_SNAPSHOT_VERSION}` };
  const field = (index: number) => head.readDoubleLE(16 + 8 * index);
  const [epoch, readFrom, loadedAt, merged, rows, bodyBytes] = [field(0), field(1), field(2), field(3), field(4), field(5)];
  if (bodyBytes !== bytes.length - HEADER_BYTES)
    return { rejected: `torn: ${bytes.length - HEADER_BYTES} body bytes, ${bodyBytes} written` };
  const body = bytes.subarray(HEADER_BYTES);
  if (!createHash('sha256').update(body).digest().equals(head.subarray(64, 96))) return { rejected: 'its checksum does not match' };
  try {
    const metaBytes = head.readUInt32LE(12);
    const meta = metaSchema.parse(JSON.parse(Buffer.from(body.buffer, HEADER_BYTES, metaBytes).toString('utf8')));
    let at = HEADER_BYTES + padded(metaBytes);
    const arrays = new Map<string, Typed>();
    for (const section of meta.sections) {
      const Type = TYPES[section.type];
      if (at + section.length * Type.BYTES_PER_ELEMENT > bytes.length) return { rejected: `section ${section.name} runs past the end` };
      arrays.set(section.name, new Type(bytes.buffer, at, section.length));
      at = padded(at + section.length * Type.BYTES_PER_ELEMENT);
    }
    const take = <T extends Typed>(name: string, ...types: TypeName[]): T => {
      const found = arrays.get(name);
      if (!found || !types.includes(found.constructor.name as TypeName))
        throw new Error(`no section ${name} of type ${types.join(' or ')}`);
      return found as T;
    };
    const keys = Object.fromEntries(
      (['duels', 'visitors', 'clients', 'clusters'] as const).map((name) => [name, take<Uint32Array>(`keys.${name}`, 'Uint32Array')]),
    ) as unknown as VoteColumnsState['keys'];
    const columns = Object.fromEntries(
      STATE_COLUMNS.map(({ name }) => [
        name,
        take(`columns.${name}`, ...(name === 'style' ? (['Uint16Array', 'Uint32Array'] as const) : []), typeOf(name)),
      ]),
    ) as unknown as VoteColumnsState['columns'];
    if (meta.counts.size !== rows) return { rejected: `the header says ${rows} rows, the body ${meta.counts.size}` };
    const energySums = take<Float64Array>('energySums', 'Float64Array');
    const state: VoteColumnsState = {
      counts: meta.counts,
      names: meta.names,
      categoryOverflow: meta.categoryOverflow,
      keys,
      columns,
      energySums,
    };
    return { header: { epoch, readFrom, loadedAt, merged }, state };
  } catch (error) {
    return { rejected: `its layout is wrong: ${(error as Error).message}` };
  }
}

/** The element type of each column (the style column is 16-bit until a count passes 65,535, then 32-bit). */
function typeOf(name: (typeof STATE_COLUMNS)[number]['name']): TypeName {
  const types: Record<typeof name, TypeName> = {
    modelA: 'Uint16Array',
    modelB: 'Uint16Array',
    choice: 'Uint8Array',
    baseFlags: 'Uint8Array',
    hasStyle: 'Uint8Array',
    style: 'Uint16Array',
    language: 'Int16Array',
    mode: 'Int16Array',
    categoryMask: 'Uint32Array',
    arena: 'Uint8Array',
    visitor: 'Int32Array',
    client: 'Int32Array',
    createdAtMs: 'Float64Array',
    votedAfterMs: 'Float32Array',
    shownChars: 'Float32Array',
    votedAfterShownMs: 'Float32Array',
    review: 'Uint8Array',
    promptCluster: 'Int32Array',
  };
  return types[name];
}

/** Where a snapshot is kept: a file beside an SQLite store, or rows of a PostgreSQL one (the same bytes either way). */
export interface ColumnsSnapshotStorage {
  /** Said in log lines: the file's path, or the table's name. */
  where: string;
  /** The stored snapshot checked, or undefined when there is none. */
  read(): Promise<ColumnsSnapshotRead | undefined>;
  /** Replaces the stored snapshot; false when it was left alone (a newer one another instance wrote). */
  write(header: ColumnsSnapshotHeader, state: VoteColumnsState): Promise<boolean>;
}

/** The snapshot as a file (SQLite stores): written atomically, read whole. */
export function columnsSnapshotFile(path: string): ColumnsSnapshotStorage {
  return {
    where: path,
    read: () => readColumnsSnapshot(path),
    write: async (header, state) => {
      await writeColumnsSnapshot(path, header, state);
      return true;
    },
  };
}

/** Deletes a snapshot and a temporary one left by a crash (always safe: the next start reads every vote). */
export async function removeColumnsSnapshot(path: string): Promise<void> {
  await rm(path, { force: true });
  await rm(`${path}.tmp`, { force: true });
}
