/**
 * The public folder of a published export, read for the datasets page: file sizes and a few rows
 * when it is written, and the files themselves for downloads, never a path outside that folder.
 */
import { createReadStream } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { isAbsolute, relative, sep } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { Readable } from 'node:stream';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';

/** Longest text kept in a preview cell: a preview shows what a row looks like, not whole conversations. */
const PREVIEW_CHARS = 240;

/** Bytes of a written file. */
export async function fileBytes(path: string): Promise<number> {
  return (await stat(path)).size;
}

/** The first `count` rows of a written dataset file (Parquet or JSONL), as JSON values with long texts cut. */
export async function previewRows(path: string, count: number): Promise<Record<string, unknown>[]> {
  const rows = path.endsWith('.parquet') ? await parquetHead(path, count) : await jsonlHead(path, count);
  return rows.map((row) => shorten(row) as Record<string, unknown>);
}

async function parquetHead(path: string, count: number): Promise<Record<string, unknown>[]> {
  return (await parquetReadObjects({
    file: await asyncBufferFromFile(path),
    rowStart: 0,
    rowEnd: count,
    compressors: { BROTLI: (input) => brotliDecompressSync(input) },
  })) as Record<string, unknown>[];
}

async function jsonlHead(path: string, count: number): Promise<Record<string, unknown>[]> {
  const rows: Record<string, unknown>[] = [];
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() !== '') rows.push(JSON.parse(line) as Record<string, unknown>);
    if (rows.length >= count) break;
  }
  lines.close();
  return rows;
}

/** JSON-safe and short: 64-bit integers as numbers, days as `YYYY-MM-DD`, texts cut to {@link PREVIEW_CHARS}. */
function shorten(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string') return value.length > PREVIEW_CHARS ? `${value.slice(0, PREVIEW_CHARS)}…` : value;
  if (Array.isArray(value)) return value.map(shorten);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shorten(item)]));
  return value;
}

/** An opened published file: its size and a stream of one byte range of it. */
export interface PublishedFile {
  bytes: number;
  /** Streams the range (inclusive ends), or the whole file; the file is closed when the stream ends. */
  stream(range?: { start: number; end: number }): Readable;
  /** Closes the file without reading it. */
  close(): Promise<void>;
}

/**
 * Opens `relativePath` inside `folder`, or undefined when it is not a regular file there. Symbolic
 * links are followed and the real path must still be inside the folder's real path, so a link planted
 * in an export cannot serve a file beside it.
 */
export async function openPublishedFile(folder: string, relativePath: string): Promise<PublishedFile | undefined> {
  try {
    const root = await realpath(folder);
    const target = await realpath(`${root}${sep}${relativePath}`);
    const inside = relative(root, target);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
    const handle = await open(target, 'r');
    const info = await handle.stat();
    if (!info.isFile()) {
      await handle.close();
      return undefined;
    }
    // The stream reads through the handle opened after the check, so the file served is the one checked.
    return {
      bytes: info.size,
      stream: (range) => handle.createReadStream({ start: range?.start ?? 0, ...(range ? { end: range.end } : {}), autoClose: true }),
      close: () => handle.close(),
    };
  } catch {
    return undefined;
  }
}

/** Whether `relativePath` is a regular file inside `folder` (the same checks as {@link openPublishedFile}). */
export async function holdsPublishedFile(folder: string, relativePath: string): Promise<boolean> {
  const file = await openPublishedFile(folder, relativePath);
  await file?.close();
  return file !== undefined;
}
