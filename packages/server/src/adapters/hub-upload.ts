import { openAsBlob } from 'node:fs';
import { lstat, readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { HubApiError, commitIter } from '@huggingface/hub';

/** Why a push to the Hub failed, as the console names it. */
export type HubFailure =
  'hub_unauthorized' | 'hub_forbidden' | 'hub_repository_not_found' | 'hub_rate_limited' | 'hub_unavailable' | 'hub_error';

export class HubUploadError extends Error {
  override readonly name = 'HubUploadError';
  constructor(
    readonly failure: HubFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface HubFolderUpload {
  hubUrl: string;
  /** `owner/name` of a dataset repository. */
  repository: string;
  token: string;
  folder: string;
  title: string;
  /** Files sent so far (a file counts once its bytes are on the Hub or in the commit). */
  progress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  retry?: HubRetryPolicy;
}

export interface HubRetryPolicy {
  /** Tries of one request in all (429 and 5xx answers are tried again). */
  attempts: number;
  /** Wait before the second try of a 5xx, doubled each time. */
  baseDelayMs: number;
  /** A Retry-After longer than this is not waited for: the push fails as rate-limited. */
  maxRetryAfterMs: number;
}

const DEFAULT_RETRY: HubRetryPolicy = { attempts: 4, baseDelayMs: 1000, maxRetryAfterMs: 60_000 };

/**
 * Sends a folder (an export's `public/` or `gated/`: data files and the README.md card) to a Hub
 * dataset repository in one commit, with @huggingface/hub: preupload, LFS batch and PUTs for the
 * large files, then the NDJSON commit. Git LFS's basic transfer, not Xet (useXet: false): the
 * Hub takes both, and the basic one needs no chunking client-side. The token goes only into the
 * Authorization header the library sets; no message here ever holds it.
 */
export async function uploadFolderToHub(upload: HubFolderUpload): Promise<{ files: number; bytes: number; commitUrl: string | null }> {
  const files = await folderFiles(upload.folder);
  const operations = await Promise.all(
    files.map(async (file) => ({ operation: 'addOrUpdate' as const, path: file.path, content: await openAsBlob(file.absolute) })),
  );
  const bytes = files.reduce((sum, file) => sum + file.bytes, 0);
  const sent = new Set<string>();
  const iterator = commitIter({
    repo: { type: 'dataset', name: upload.repository },
    accessToken: upload.token,
    hubUrl: upload.hubUrl,
    title: upload.title,
    operations,
    useXet: false,
    fetch: retryingFetch(upload.retry ?? DEFAULT_RETRY, upload.signal),
    ...(upload.signal ? { abortSignal: upload.signal } : {}),
  });
  try {
    for (;;) {
      const step = await iterator.next();
      if (step.done) {
        upload.progress?.(files.length, files.length);
        return { files: files.length, bytes, commitUrl: step.value?.commit.url ?? null };
      }
      if (step.value.event === 'fileProgress' && step.value.state === 'uploading' && step.value.progress >= 1) {
        sent.add(step.value.path);
        upload.progress?.(sent.size, files.length);
      }
    }
  } catch (error) {
    throw hubError(error);
  }
}

/** The folder's regular files, paths relative to it with `/`; links and anything else are left out. */
async function folderFiles(folder: string): Promise<{ path: string; absolute: string; bytes: number }[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = [];
  for (const entry of entries) {
    const absolute = join(entry.parentPath, entry.name);
    const stats = await lstat(absolute);
    if (stats.isFile()) files.push({ path: relative(folder, absolute).split(sep).join('/'), absolute, bytes: stats.size });
  }
  return files.sort((left, right) => (left.path < right.path ? -1 : left.path > right.path ? 1 : 0));
}

/**
 * fetch that tries a request again on 429 (after its Retry-After) and on 5xx (after a doubling
 * wait): the Hub throttles bursts of uploads and has passing errors. Bodies are strings or Blobs,
 * which can be sent again.
 */
export function retryingFetch(policy: HubRetryPolicy, signal?: AbortSignal): typeof fetch {
  return async (input, init) => {
    for (let attempt = 1; ; attempt++) {
      const response = await fetch(input, init);
      const retriable = response.status === 429 || response.status >= 500;
      if (!retriable || attempt >= policy.attempts) return response;
      const waitMs = response.status === 429 ? retryAfterMs(response.headers.get('retry-after')) : policy.baseDelayMs * 2 ** (attempt - 1);
      if (waitMs > policy.maxRetryAfterMs) return response;
      await response.body?.cancel();
      await delay(waitMs, signal);
    }
  };
}

/** Retry-After in seconds or as a date; a missing or unreadable one waits a second. */
function retryAfterMs(header: string | null): number {
  if (header === null) return 1000;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - Date.now());
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('push aborted'));
      },
      { once: true },
    );
  });
}

/** The library's error as a failure the console can name; its message keeps the Hub's words (never a header). */
function hubError(error: unknown): HubUploadError {
  if (error instanceof HubUploadError) return error;
  if (error instanceof HubApiError) {
    const failure: HubFailure =
      error.statusCode === 401
        ? 'hub_unauthorized'
        : error.statusCode === 403
          ? 'hub_forbidden'
          : error.statusCode === 404
            ? 'hub_repository_not_found'
            : error.statusCode === 429
              ? 'hub_rate_limited'
              : error.statusCode >= 500
                ? 'hub_unavailable'
                : 'hub_error';
    return new HubUploadError(failure, error.message, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  // A refused connection or a name that does not resolve: the Hub cannot be reached.
  return new HubUploadError(error instanceof TypeError ? 'hub_unavailable' : 'hub_error', message, { cause: error });
}

/** How many files a push of `folder` sends (0 when it is not there). */
export async function hubFolderFileCount(folder: string): Promise<number> {
  try {
    return (await folderFiles(folder)).length;
  } catch {
    return 0;
  }
}

/** An export's card (`<tier>/README.md`) as text, or undefined when this server does not hold it. */
export async function readExportCard(folder: string, tier: 'public' | 'gated'): Promise<string | undefined> {
  const path = join(folder, tier, 'README.md');
  try {
    if (!(await lstat(path)).isFile()) return undefined;
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}
