import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../src/config/catalogue';
import type { RecommendedLocalModel } from '../../src/config/recommended-local-models';
import { pullLocalModels } from '../../src/services/local-models.service';
import { writeTinyGguf } from '../local-models/tiny-gguf';

/**
 * `agora models pull` as a service call, against a hub on a loopback socket (the only network the
 * tests may use) that answers like Hugging Face: the resolve URL says the file's SHA-256 and size and
 * redirects to the CDN path that serves it. Two tiny GGUF files stand for the models; the CLI and its
 * resumed downloads are covered by test/local-models/models-pull.test.ts.
 */

const folder = mkdtempSync(join(tmpdir(), 'agora-in-process-pull-'));

function testModel(name: string): RecommendedLocalModel {
  return {
    id: `${name}-q4`,
    name: `Tiny ${name}`,
    organisation: 'Agora tests',
    license: 'Apache 2.0',
    license_url: 'https://www.apache.org/licenses/LICENSE-2.0',
    repo: `agora-tests/${name}-GGUF`,
    file: `${name}.gguf`,
    revision: 'main',
    approxBytes: 100_000,
    description: `A tiny test model (${name}).`,
    default: true,
  };
}
const [first, second] = [testModel('tiny-a'), testModel('tiny-b')];

interface Hub {
  server: Server;
  endpoint: string;
  /** Paths asked for, in order. */
  requests: string[];
  /** Files whose announced checksum is another file's. */
  lying: Set<string>;
}

const files = new Map<string, Buffer>();
let hub: Hub;

beforeAll(async () => {
  for (const [index, model] of [first, second].entries()) {
    const path = join(folder, `source-${index}.gguf`);
    // As small as a GGUF gets: only its header and tensor shapes are read here.
    writeTinyGguf(path, { seed: 11 + index, name: model.name, embedding: 16, layers: 1, heads: 2, feedForward: 32 });
    files.set(`${model.repo}/${model.file}`, readFileSync(path));
  }
  hub = await startHub();
});
afterAll(async () => {
  await new Promise((done) => hub.server.close(done));
  rmSync(folder, { recursive: true, force: true });
});

async function startHub(): Promise<Hub> {
  const requests: string[] = [];
  const lying = new Set<string>();
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://hub').pathname;
    requests.push(path);
    const resolve = /^\/(.+?\/.+?)\/resolve\/main\/(.+)$/.exec(path);
    const key = resolve ? `${resolve[1]}/${decodeURIComponent(resolve[2]!)}` : decodeURIComponent(path.replace(/^\/cdn\//, ''));
    const bytes = files.get(key);
    if (!bytes) return void response.writeHead(404).end('not found');
    if (resolve) {
      const sha = createHash('sha256')
        .update(lying.has(key) ? Buffer.from('another file') : bytes)
        .digest('hex');
      response.writeHead(302, {
        location: `/cdn/${encodeURIComponent(key)}`,
        'x-linked-etag': `"${sha}"`,
        'x-linked-size': String(bytes.length),
      });
      return void response.end();
    }
    response.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, lying };
}

const pullInto = (out: string, models: readonly RecommendedLocalModel[]) =>
  pullLocalModels({ models, dir: join(out, 'models'), cataloguePath: join(out, 'models.local.yaml'), endpoint: hub.endpoint });
const catalogueIn = (out: string) =>
  parseCatalogue(readFileSync(join(out, 'models.local.yaml'), 'utf8'), join(out, 'models.local.yaml'), {});

describe('pulling local models, against a loopback hub', () => {
  it('downloads a model through the hub’s redirect, checks it, and writes a catalogue of it with the facts of its file; a second pull downloads nothing, and one of another model keeps it', async () => {
    const out = mkdtempSync(join(folder, 'pull-'));
    const target = join(out, 'models', 'agora-tests', 'tiny-a-GGUF', 'tiny-a.gguf');
    const progress: number[] = [];
    const pulled = await pullLocalModels({
      models: [first],
      dir: join(out, 'models'),
      cataloguePath: join(out, 'models.local.yaml'),
      endpoint: hub.endpoint,
      onProgress: (_model, { done }) => progress.push(done),
    });
    const bytes = files.get(`${first.repo}/${first.file}`)!;
    expect(pulled).toEqual([{ id: first.id, path: target, downloaded: true, bytes: bytes.length }]);
    expect(readFileSync(target).equals(bytes)).toBe(true);
    expect(progress.at(-1)).toBe(bytes.length);
    const [entry] = catalogueIn(out);
    expect(entry!.entry).toMatchObject({ id: first.id, name: first.name, open_weights: true, arch: 'dense' });
    expect(entry!.entry.provider.type).toBe('llama-cpp');
    expect(entry!.local?.path).toBe(target);
    // Read from the tensors of the tiny file: thousands of parameters, not billions.
    expect(entry!.entry.params_b).toBeGreaterThan(0);
    expect(entry!.entry.params_b).toBeLessThan(0.01);

    const asked = hub.requests.length;
    expect(await pullInto(out, [first])).toEqual([{ id: first.id, path: target, downloaded: false, bytes: undefined }]);
    expect(hub.requests.length).toBe(asked);
    // Pulling another model keeps this one in the catalogue.
    await pullInto(out, [second]);
    expect(catalogueIn(out).map((model) => model.entry.id)).toEqual([first.id, second.id]);
  });

  it('refuses a file whose checksum is not the one the hub announced: nothing of it is kept, and no catalogue is written', async () => {
    const out = mkdtempSync(join(folder, 'lying-'));
    const key = `${second.repo}/${second.file}`;
    hub.lying.add(key);
    try {
      await expect(pullInto(out, [second])).rejects.toThrow(
        /checksum mismatch \(SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}\); the file was deleted/,
      );
    } finally {
      hub.lying.delete(key);
    }
    const target = join(out, 'models', 'agora-tests', 'tiny-b-GGUF', 'tiny-b.gguf');
    expect([target, `${target}.part`, join(out, 'models.local.yaml')].filter((path) => existsSync(path))).toEqual([]);
  });

  it('names the file the hub does not have', async () => {
    const out = mkdtempSync(join(folder, 'missing-'));
    await expect(pullInto(out, [testModel('absent')])).rejects.toThrow(/absent\.gguf: HTTP 404/);
    expect(existsSync(join(out, 'models.local.yaml'))).toBe(false);
  });
});
