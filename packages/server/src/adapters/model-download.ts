import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** Hugging Face's resolve endpoint of a file, under an endpoint (`https://huggingface.co` or a mirror). */
export const resolveUrl = (endpoint: string, repo: string, revision: string, file: string): string =>
  `${endpoint.replace(/\/+$/, '')}/${repo}/resolve/${encodeURIComponent(revision)}/${file.split('/').map(encodeURIComponent).join('/')}`;

export class ModelDownloadError extends Error {
  override readonly name = 'ModelDownloadError';
}

export interface DownloadProgress {
  /** Bytes on disk, resumed ones included. */
  done: number;
  total: number;
  /** Bytes already on disk when this attempt started (a resumed download). */
  resumedFrom: number;
}

export interface DownloadOptions {
  /** The SHA-256 the file must have; without it, the hub's `X-Linked-Etag` (the LFS object id) is used. */
  sha256?: string | undefined;
  /** An access token for gated repositories (`Authorization: Bearer`), sent to the hub only. */
  token?: string | undefined;
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

const MAX_REDIRECTS = 5;

/**
 * Downloads a file as Hugging Face serves it: the resolve URL answers with a redirect to its CDN
 * and says the file's SHA-256 and size (`X-Linked-Etag`, `X-Linked-Size`). Bytes go to
 * `<path>.part`; a later call resumes it with a `Range` request. The whole file is checked against
 * the expected SHA-256 before it takes its name: a file that does not match is deleted and refused.
 */
export async function downloadModelFile(
  url: string,
  path: string,
  options: DownloadOptions = {},
): Promise<{ sha256: string; bytes: number }> {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.part`;
  // The checksum the part was started for: a part of another version of the file is never resumed.
  const partFor = `${partial}.sha256`;
  const { response, expected, announced, resumedFrom } = await requestResumable(url, partial, partFor, options);
  const { append, sha256 } = await checkAnswer(url, response, announced, resumedFrom);
  writeFileSync(partFor, sha256);
  const start = append ? resumedFrom : 0;
  const length = contentLength(response);
  const total = expected.size ?? (length === undefined ? undefined : start + length);
  if (response.status !== 416 && response.body) await writePart(url, response.body, partial, { append, start, total }, options);
  const bytes = sizeOf(partial);
  if (total !== undefined && bytes !== total)
    throw new ModelDownloadError(`${url}: the download stopped at ${bytes} of ${total} bytes; run the command again to resume`);
  const actual = await sha256Of(partial);
  if (actual !== sha256) {
    rmSync(partial, { force: true });
    rmSync(partFor, { force: true });
    throw new ModelDownloadError(`${url}: checksum mismatch (SHA-256 ${actual}, expected ${sha256}); the file was deleted`);
  }
  renameSync(partial, path);
  rmSync(partFor, { force: true });
  return { sha256: actual, bytes };
}

interface ExpectedFile {
  sha256: string | undefined;
  size: number | undefined;
}

/**
 * Asks for the file from where the part on disk stops; a part started for another checksum, longer
 * than the file or refused by the server is deleted and the whole file asked for again.
 */
async function requestResumable(
  url: string,
  partial: string,
  partFor: string,
  options: DownloadOptions,
): Promise<{ response: Response; expected: ExpectedFile; announced: string | undefined; resumedFrom: number }> {
  let resumedFrom = sizeOf(partial);
  let { response, expected } = await request(url, resumedFrom, options);
  let sha256 = (options.sha256 ?? expected.sha256)?.toLowerCase();
  if (resumedFrom > 0) {
    const startedFor = readText(partFor);
    const tooLong = expected.size !== undefined && resumedFrom > expected.size;
    const refused = response.status === 416 && expected.size !== resumedFrom;
    if (startedFor !== sha256 || tooLong || refused) {
      await response.body?.cancel();
      rmSync(partial, { force: true });
      resumedFrom = 0;
      ({ response, expected } = await request(url, 0, options));
      sha256 = (options.sha256 ?? expected.sha256)?.toLowerCase();
    }
  }
  return { response, expected, announced: sha256, resumedFrom };
}

/**
 * Refuses an answer that is neither the file, the rest of it nor "the part is whole", or a file with
 * no SHA-256 to check it against; says whether the bytes are appended to the part on disk, and the checksum.
 */
async function checkAnswer(
  url: string,
  response: Response,
  sha256: string | undefined,
  resumedFrom: number,
): Promise<{ append: boolean; sha256: string }> {
  let append = resumedFrom > 0 && response.status === 206;
  if (response.status === 416) {
    // The part is already whole (the last attempt stopped before it was renamed).
    await response.body?.cancel();
    append = true;
  } else if (response.status !== 200 && response.status !== 206) {
    await response.body?.cancel();
    throw new ModelDownloadError(`${url}: HTTP ${response.status}`);
  }
  if (sha256 === undefined || !/^[0-9a-f]{64}$/.test(sha256)) {
    await response.body?.cancel();
    throw new ModelDownloadError(`${url}: no SHA-256 to check the file against (the hub sent no X-Linked-Etag)`);
  }
  return { append, sha256 };
}

/** Writes the body to the part (appended or from its start), counting the bytes for progress and against the announced size. */
async function writePart(
  url: string,
  body: NonNullable<Response['body']>,
  partial: string,
  { append, start, total }: { append: boolean; start: number; total: number | undefined },
  options: DownloadOptions,
): Promise<void> {
  let done = start;
  const counter = new TransformCounter((bytes) => {
    done += bytes;
    // A body longer than the file announced is cut here: it cannot be the file, and it must not fill the disk.
    if (total !== undefined && done > total)
      throw new ModelDownloadError(`${url}: the server sent more than the ${total} bytes it announced`);
    options.onProgress?.({ done, total: total ?? done, resumedFrom: start });
  });
  try {
    await pipeline(
      Readable.fromWeb(body as WebReadableStream<Uint8Array>),
      counter,
      createWriteStream(partial, { flags: append ? 'a' : 'w' }),
      {
        signal: options.signal,
      },
    );
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (error instanceof ModelDownloadError) {
      rmSync(partial, { force: true });
      throw error;
    }
    const reason = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new ModelDownloadError(`${url}: the download stopped at ${sizeOf(partial)} bytes (${reason}); run the command again to resume`);
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** GET with redirects followed by hand, so that the hub's own headers (checksum, size) are read before the CDN's. */
async function request(url: string, from: number, options: DownloadOptions): Promise<{ response: Response; expected: ExpectedFile }> {
  const expected: ExpectedFile = { sha256: undefined, size: undefined };
  const origin = new URL(url).origin;
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const headers: Record<string, string> = from > 0 ? { range: `bytes=${from}-` } : {};
    if (options.token && new URL(current).origin === origin) headers.authorization = `Bearer ${options.token}`;
    let response: Response;
    try {
      response = await fetch(current, { headers, redirect: 'manual', signal: options.signal });
    } catch (error) {
      throw new ModelDownloadError(
        `${current}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`,
      );
    }
    // Only the hub says what the file is: a CDN or a mirror it redirects to cannot vouch for itself.
    if (new URL(current).origin === origin) {
      const etag = response.headers.get('x-linked-etag') ?? undefined;
      if (etag) expected.sha256 = etag.replace(/^W\//, '').replace(/"/g, '');
      const size = Number(response.headers.get('x-linked-size'));
      if (Number.isSafeInteger(size) && size > 0) expected.size = size;
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      current = new URL(location, current).toString();
      continue;
    }
    return { response, expected };
  }
  throw new ModelDownloadError(`${url}: more than ${MAX_REDIRECTS} redirects`);
}

const contentLength = (response: Response): number | undefined => {
  const value = Number(response.headers.get('content-length'));
  return Number.isSafeInteger(value) && value >= 0 && response.headers.has('content-length') ? value : undefined;
};

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Counts the bytes passing through. */
class TransformCounter extends Transform {
  constructor(private readonly count: (bytes: number) => void) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null, data?: Buffer) => void): void {
    try {
      this.count(chunk.length);
    } catch (error) {
      callback(error as Error);
      return;
    }
    callback(null, chunk);
  }
}
