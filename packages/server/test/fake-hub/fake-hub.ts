import { createHash } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';

/**
 * A local fake of the Hugging Face Hub's upload API, over real HTTP: the calls @huggingface/hub
 * makes for a commit with Git LFS's basic transfer (useXet: false). It checks the bearer token
 * and the repository, keeps what it received (regular files from the NDJSON commit, large files
 * from their PUT, checked against their sha256), and can misbehave on request.
 *
 *   POST /api/datasets/{owner}/{name}/preupload/{rev}        which files go through LFS (here: .parquet)
 *   POST /datasets/{owner}/{name}.git/info/lfs/objects/batch  where to PUT each LFS object
 *   PUT  /lfs/{oid}                                           an LFS object's bytes
 *   POST /api/datasets/{owner}/{name}/commit/{rev}            the NDJSON commit
 */

export interface HubCommit {
  repository: string;
  title: string;
  /** Path → bytes, for every file of the commit. */
  files: Map<string, Buffer>;
}

/** A misbehaviour for the next request whose path contains `on` (any when absent). */
export interface HubFault {
  status: 401 | 403 | 404 | 429 | 500 | 503;
  on?: 'preupload' | 'batch' | 'lfs' | 'commit';
  retryAfterS?: number;
}

export interface HubRequest {
  method: string;
  path: string;
  status: number;
  authorization: string | undefined;
}

export class FakeHub {
  private server: Server | undefined;
  readonly tokens = new Set<string>();
  readonly repositories = new Set<string>();
  readonly commits: HubCommit[] = [];
  readonly requests: HubRequest[] = [];
  private readonly lfsObjects = new Map<string, Buffer>();
  private readonly faults: HubFault[] = [];

  get baseUrl(): string {
    const address = this.server?.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  /** The next matching request answers `fault` instead (each fault once, in order). */
  misbehave(...faults: HubFault[]): void {
    this.faults.push(...faults);
  }

  /** The repository's files after its last commit (later commits overwrite earlier paths). */
  filesOf(repository: string): Map<string, Buffer> {
    const files = new Map<string, Buffer>();
    for (const commit of this.commits)
      if (commit.repository === repository) for (const [path, bytes] of commit.files) files.set(path, bytes);
    return files;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.baseUrl);
    const body = await readBody(request);
    const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      this.requests.push({ method: request.method ?? '', path: url.pathname, status, authorization: request.headers.authorization });
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify(json));
    };
    const fault = this.takeFault(url.pathname);
    if (fault) {
      const headers: Record<string, string> = fault.retryAfterS !== undefined ? { 'retry-after': String(fault.retryAfterS) } : {};
      return answer(fault.status, { error: fault.status === 429 ? 'Too many requests' : `Fake Hub fault ${fault.status}` }, headers);
    }
    // LFS PUTs carry no token: the batch answer's URL is the capability, as on the real Hub's storage.
    const put = /^\/lfs\/([0-9a-f]{64})$/.exec(url.pathname);
    if (request.method === 'PUT' && put) return this.storeObject(put[1]!, body, answer);
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!token || !this.tokens.has(token)) return answer(401, { error: 'Invalid credentials in Authorization header' });
    const api = /^\/api\/datasets\/([^/]+\/[^/]+)\/(preupload|commit)\/([^/]+)$/.exec(url.pathname);
    const batch = /^\/datasets\/([^/]+\/[^/]+)\.git\/info\/lfs\/objects\/batch$/.exec(url.pathname);
    const repository = api?.[1] ?? batch?.[1];
    if (!repository || request.method !== 'POST') return answer(404, { error: 'Not found' });
    if (!this.repositories.has(repository)) return answer(404, { error: 'Repository not found' });
    if (batch) return this.lfsBatch(body, answer);
    if (api?.[2] === 'preupload') return this.preupload(body, answer);
    return this.commit(repository, body, answer);
  }

  private takeFault(path: string): HubFault | undefined {
    const index = this.faults.findIndex((fault) => !fault.on || path.includes(fault.on === 'lfs' ? '/lfs/' : fault.on));
    return index < 0 ? undefined : this.faults.splice(index, 1)[0];
  }

  private preupload(body: Buffer, answer: Answer): void {
    const { files } = JSON.parse(body.toString('utf8')) as { files: { path: string; size: number }[] };
    answer(200, { files: files.map((file) => ({ path: file.path, uploadMode: file.path.endsWith('.parquet') ? 'lfs' : 'regular' })) });
  }

  private lfsBatch(body: Buffer, answer: Answer): void {
    const { objects, transfers } = JSON.parse(body.toString('utf8')) as { objects: { oid: string; size: number }[]; transfers: string[] };
    if (!transfers.includes('basic')) return answer(422, { message: 'the fake Hub speaks the basic transfer only' });
    answer(200, {
      transfer: 'basic',
      objects: objects.map((object) => ({
        oid: object.oid,
        size: object.size,
        ...(this.lfsObjects.has(object.oid) ? {} : { actions: { upload: { href: `${this.baseUrl}/lfs/${object.oid}` } } }),
      })),
    });
  }

  private storeObject(oid: string, body: Buffer, answer: Answer): void {
    if (createHash('sha256').update(body).digest('hex') !== oid) return answer(400, { error: 'sha256 mismatch' });
    this.lfsObjects.set(oid, body);
    answer(200, {});
  }

  private commit(repository: string, body: Buffer, answer: Answer): void {
    const lines = body
      .toString('utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { key: string; value: Record<string, unknown> });
    const header = lines.find((line) => line.key === 'header');
    const files = new Map<string, Buffer>();
    for (const { key, value } of lines) {
      if (key === 'file') files.set(String(value.path), Buffer.from(String(value.content), 'base64'));
      if (key === 'lfsFile') {
        const stored = this.lfsObjects.get(String(value.oid));
        if (!stored) return answer(422, { error: `LFS object of ${String(value.path)} was never uploaded` });
        files.set(String(value.path), stored);
      }
    }
    this.commits.push({ repository, title: typeof header?.value.summary === 'string' ? header.value.summary : '', files });
    const oid = createHash('sha1').update(body).digest('hex');
    answer(200, { commitOid: oid, commitUrl: `${this.baseUrl}/datasets/${repository}/commit/${oid}` });
  }
}

type Answer = (status: number, json: unknown, headers?: Record<string, string>) => void;

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
