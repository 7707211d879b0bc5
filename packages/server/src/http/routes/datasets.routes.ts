import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { AppError } from '../../services/app-error';
import type { PublishedDatasetsService } from '../../services/published-datasets.service';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';

export function datasetRoutes(published: PublishedDatasetsService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const limited = limitedBy(limits);
  routes.get('/', limited('reads'), async (c) => {
    c.header('cache-control', 'public, max-age=30');
    return c.json(await published.latest());
  });
  // A public file of the last export, streamed (one byte range when asked): see PublishedDatasetsService.download.
  routes.get('/:id/files/:path{.+}', limited('downloads'), async (c) => {
    const download = await published.download(c.req.param('id'), filePath(new URL(c.req.url).pathname));
    const size = download.file.bytes;
    const range = byteRange(c.req.header('range'), size);
    if (range === 'unsatisfiable') {
      await download.file.close();
      c.header('content-range', `bytes */${size}`);
      throw new AppError('range_not_satisfiable', `the file has ${size} bytes`);
    }
    const headers: Record<string, string> = {
      'content-type': download.contentType,
      'content-length': String(range ? range.end - range.start + 1 : size),
      'content-disposition': `attachment; filename="${download.name}"`,
      'accept-ranges': 'bytes',
      'cache-control': 'public, max-age=300',
    };
    if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
    if (c.req.method === 'HEAD') {
      // Headers only: the file is closed now rather than left open until a stream nobody reads is collected.
      await download.file.close();
      return c.body(null, range ? 206 : 200, headers);
    }
    const body = Readable.toWeb(download.file.stream(range)) as ReadableStream<Uint8Array>;
    return c.body(body, range ? 206 : 200, headers);
  });
  return routes;
}

/** The path after `/files/`, each segment decoded once (`%2e%2e` and `%00` stay as the names they spell, and are not listed). */
function filePath(pathname: string): string {
  const at = pathname.indexOf('/files/');
  try {
    return pathname
      .slice(at + '/files/'.length)
      .split('/')
      .map((segment) => decodeURIComponent(segment))
      .join('/');
  } catch {
    throw new AppError('invalid_request', 'the file path is not valid percent-encoding');
  }
}

/**
 * One range of `Range: bytes=…` (`a-b`, `a-`, `-n`), inclusive; undefined to send the whole file (no
 * header, several ranges or a malformed one, which RFC 9110 lets a server ignore).
 */
function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
