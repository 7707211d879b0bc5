import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../src/config/catalogue';
import type { ModelCard } from '@agora/contract';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config';
import { type RecommendedLocalModel, RECOMMENDED_LOCAL_MODELS } from '../../src/config/recommended-local-models';
import { createArena } from '../../src/main';
import { testCatalogueYaml } from '../test-arena';
import { localModelFileProblem } from '../../src/providers/llama-cpp/local-model-files';
import { runAgora } from '../run-agora';
import { writeTinyGguf } from './tiny-gguf';

/**
 * `agora models pull` against a local server that answers like Hugging Face: the resolve URL
 * redirects to a CDN path and says the file's SHA-256 and size (`X-Linked-Etag`, `X-Linked-Size`);
 * the CDN honours `Range`. The server can cut a download halfway and lie about a checksum.
 */
const folder = mkdtempSync(join(tmpdir(), 'agora-models-pull-'));
const defaults = RECOMMENDED_LOCAL_MODELS.filter((model) => model.default);

interface Hub {
  server: Server;
  endpoint: string;
  /** Range headers the CDN received, by file. */
  ranges: Map<string, (string | undefined)[]>;
  /** Files whose next CDN answer stops after half of the bytes. */
  cutNext: Set<string>;
  /** Files whose announced checksum is wrong. */
  badChecksum: Set<string>;
  /** Files whose CDN answer carries bytes beyond the file. */
  extraBytes: Set<string>;
  /** Files whose CDN answer says a checksum of its own (which must not count). */
  cdnEtag: Map<string, string>;
}

async function startHub(files: Map<string, Buffer>): Promise<Hub> {
  const hub: Omit<Hub, 'server' | 'endpoint'> = {
    ranges: new Map(),
    cutNext: new Set(),
    badChecksum: new Set(),
    extraBytes: new Set(),
    cdnEtag: new Map(),
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://hub');
    const resolve = /^\/(.+?\/.+?)\/resolve\/main\/(.+)$/.exec(url.pathname);
    if (resolve) {
      const key = `${resolve[1]}/${decodeURIComponent(resolve[2]!)}`;
      const bytes = files.get(key);
      if (!bytes) return void response.writeHead(404).end('not found');
      const sha = createHash('sha256')
        .update(hub.badChecksum.has(key) ? Buffer.from('other') : bytes)
        .digest('hex');
      // The CDN is another origin, as Hugging Face's is (localhost, not 127.0.0.1).
      response.writeHead(302, {
        location: `http://localhost:${(server.address() as AddressInfo).port}/cdn/${encodeURIComponent(key)}`,
        'x-linked-etag': `"${sha}"`,
        'x-linked-size': String(bytes.length),
      });
      return void response.end();
    }
    const cdn = /^\/cdn\/(.+)$/.exec(url.pathname);
    const key = cdn ? decodeURIComponent(cdn[1]!) : '';
    const bytes = files.get(key);
    if (!bytes) return void response.writeHead(404).end('not found');
    hub.ranges.set(key, [...(hub.ranges.get(key) ?? []), request.headers.range]);
    const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
    const start = range ? Number(range[1]) : 0;
    if (start >= bytes.length) return void response.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
    const body = hub.extraBytes.has(key) ? Buffer.concat([bytes.subarray(start), Buffer.alloc(4096, 1)]) : bytes.subarray(start);
    response.writeHead(range ? 206 : 200, {
      ...(hub.cdnEtag.has(key) ? { 'x-linked-etag': hub.cdnEtag.get(key)! } : {}),
      'content-length': String(body.length),
      ...(range ? { 'content-range': `bytes ${start}-${bytes.length - 1}/${bytes.length}` } : {}),
    });
    if (hub.cutNext.delete(key)) {
      response.write(body.subarray(0, Math.floor(body.length / 2)));
      setTimeout(() => response.destroy(), 50);
      return;
    }
    response.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { ...hub, server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let hub: Hub;
const files = new Map<string, Buffer>();

beforeAll(async () => {
  for (const [index, model] of RECOMMENDED_LOCAL_MODELS.entries()) {
    const path = join(folder, `source-${index}.gguf`);
    writeTinyGguf(path, { seed: 100 + index, name: model.name, embedding: 128 });
    files.set(`${model.repo}/${model.file}`, readFileSync(path));
  }
  hub = await startHub(files);
});

afterAll(async () => {
  await new Promise((done) => hub.server.close(done));
  rmSync(folder, { recursive: true, force: true });
});

const pull = (out: string, ...args: string[]) =>
  runAgora(['models', 'pull', '--dir', join(out, 'local-models'), '--catalogue', join(out, 'models.local.yaml'), ...args], '', {
    HF_ENDPOINT: hub.endpoint,
  });

// A test that starts the CLI three times: each start compiles the CLI anew (tsx), up to 10 s on a
// loaded 2-core machine, so these get more than the suite's 30 s.
const THREE_PROCESSES_MS = 90_000;

describe('agora models pull', () => {
  it(
    'downloads the recommended models through redirects, resumes a cut download with a Range request, checks it and writes their catalogue',
    { timeout: THREE_PROCESSES_MS },
    async () => {
      const out = mkdtempSync(join(folder, 'pull-'));
      const first = defaults[0]!;
      const key = `${first.repo}/${first.file}`;
      const target = join(out, 'local-models', ...first.repo.split('/'), first.file);
      hub.cutNext.add(key);
      const cut = await pull(out);
      expect(cut.code).toBe(2);
      expect(cut.stderr.split('\n').at(-2)).toMatch(/^agora: .*the download stopped at \d+ bytes .*run the command again to resume$/);
      const partial = statSync(`${target}.part`).size;
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(files.get(key)!.length);
      expect(existsSync(target)).toBe(false);

      const resumed = await pull(out);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(hub.ranges.get(key)).toEqual([undefined, `bytes=${partial}-`]);
      expect(readFileSync(target).equals(files.get(key)!)).toBe(true);
      expect(existsSync(`${target}.part`)).toBe(false);
      expect(resumed.stdout).toContain(`${target}\tdownloaded,`);
      // Progress goes to stderr as plain lines when it is not a terminal.
      expect(resumed.stderr).toMatch(new RegExp(`${first.id}: 100 %`));

      const catalogue = parseCatalogue(readFileSync(join(out, 'models.local.yaml'), 'utf8'), join(out, 'models.local.yaml'), {});
      expect(catalogue.map((model) => model.entry.id)).toEqual(defaults.map((model) => model.id));
      for (const model of catalogue) {
        expect(model.entry.provider.type).toBe('llama-cpp');
        expect(existsSync(model.local!.path)).toBe(true);
        // Facts read from the GGUF header: the tiny model's parameters.
        expect(model.entry.params_b).toBeGreaterThan(0);
        expect(model.entry.params_b).toBeLessThan(0.01);
        expect(localModelFileProblem(model.local!.path)).toBeNull();
      }

      // A second run downloads nothing.
      const again = await pull(out);
      expect(again.code).toBe(0);
      expect(again.stdout).toContain(`${target}\talready there`);
      expect(hub.ranges.get(key)).toHaveLength(2);
    },
  );

  it('refuses a file whose checksum is not the one announced, and keeps nothing of it', async () => {
    const out = mkdtempSync(join(folder, 'bad-'));
    const model = RECOMMENDED_LOCAL_MODELS.find((candidate) => !candidate.default)!;
    hub.badChecksum.add(`${model.repo}/${model.file}`);
    try {
      const outcome = await pull(out, '--models', model.id);
      expect(outcome.code).toBe(2);
      expect(outcome.stderr.split('\n').at(-2)).toMatch(
        /^agora: .*checksum mismatch \(SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}\); the file was deleted$/,
      );
      const target = join(out, 'local-models', ...model.repo.split('/'), model.file);
      expect(existsSync(target)).toBe(false);
      expect(existsSync(`${target}.part`)).toBe(false);
      expect(existsSync(join(out, 'models.local.yaml'))).toBe(false);
    } finally {
      hub.badChecksum.clear();
    }
  });

  it('makes npm start serve the local catalogue when no hosted key is set, fetching an hf: reference on first use', async () => {
    const out = mkdtempSync(join(folder, 'serve-'));
    writeFileSync(
      join(out, 'models.yaml'),
      testCatalogueYaml('http://127.0.0.1:9').replaceAll('    provider:\n', '    provider:\n      api_key_env: AGORA_TEST_UNSET_KEY\n'),
    );
    const [first, second] = defaults as [RecommendedLocalModel, RecommendedLocalModel];
    const local = (model: RecommendedLocalModel) => `  - id: ${model.id}
    name: ${model.name}
    organisation: ${model.organisation}
    license: ${model.license}
    open_weights: true
    arch: unknown
    params_b: null
    provider:
      type: llama-cpp
      model_path: hf:${model.repo}/${model.file}
      threads: 1
`;
    writeFileSync(join(out, 'models.local.yaml'), `models:\n${local(first)}${local(second)}`);
    const environment = { DATABASE_URL: `sqlite:${join(out, 'arena.db')}`, PORT: '0', HF_ENDPOINT: hub.endpoint };
    const config = { ...loadConfig(environment), modelsPath: join(out, 'models.yaml') };
    const arena = await createArena(config, environment, { logger: pino({ level: 'silent' }) });
    try {
      const response = await arena.app.request('/api/v1/models');
      const body = (await response.json()) as { models: ModelCard[]; setup_hint?: string };
      expect(body.setup_hint).toBeUndefined();
      expect(body.models.map((model) => [model.id, model.available, model.runs_locally, model.quantization_label])).toEqual([
        [first.id, true, true, 'F32'],
        [second.id, true, true, 'F32'],
      ]);
      // Facts the catalogue left out, read from the GGUF header.
      for (const model of body.models) {
        expect(model.params_b).toBeGreaterThan(0);
        expect(model.arch).toBe('dense');
      }
      const stored = join(out, 'local-models', ...first.repo.split('/'), first.file);
      expect(readFileSync(stored).equals(files.get(`${first.repo}/${first.file}`)!)).toBe(true);
    } finally {
      await arena.close();
    }
  });

  it(
    'starts again a part of another version, cuts a body longer than announced, trusts only the hub for the checksum, and keeps earlier models in the catalogue',
    { timeout: THREE_PROCESSES_MS },
    async () => {
      const out = mkdtempSync(join(folder, 'edge-'));
      const [first, second] = defaults as [RecommendedLocalModel, RecommendedLocalModel];
      const key = `${second.repo}/${second.file}`;
      const target = join(out, 'local-models', ...second.repo.split('/'), second.file);
      expect((await pull(out, '--models', first.id)).code).toBe(0);

      // A part left by another version of the file: its checksum is not the one announced now.
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(`${target}.part`, Buffer.alloc(1000, 7));
      writeFileSync(`${target}.part.sha256`, 'f'.repeat(64));
      // And a CDN that vouches for itself: only the hub's checksum counts.
      hub.cdnEtag.set(key, '0'.repeat(64));
      hub.ranges.delete(key);
      const restarted = await pull(out, '--models', second.id);
      expect(restarted.code, restarted.stderr).toBe(0);
      expect(hub.ranges.get(key)).toEqual(['bytes=1000-', undefined]);
      expect(readFileSync(target).equals(files.get(key)!)).toBe(true);
      expect(existsSync(`${target}.part.sha256`)).toBe(false);
      // Both models are in the catalogue: the second pull kept the first one.
      const catalogue = parseCatalogue(readFileSync(join(out, 'models.local.yaml'), 'utf8'), join(out, 'models.local.yaml'), {});
      expect(catalogue.map((model) => model.entry.id)).toEqual([first.id, second.id]);
      hub.cdnEtag.clear();

      // More bytes than the hub announced: refused before they fill the disk, nothing kept.
      rmSync(target);
      hub.extraBytes.add(key);
      try {
        const flooded = await pull(out, '--models', second.id);
        expect(flooded.code).toBe(2);
        expect(flooded.stderr.split('\n').at(-2)).toMatch(/^agora: .*the server sent more than the \d+ bytes it announced$/);
        expect(existsSync(`${target}.part`)).toBe(false);
        expect(existsSync(target)).toBe(false);
      } finally {
        hub.extraBytes.clear();
      }
    },
  );

  it('names the models it knows when asked for another', async () => {
    const outcome = await pull(folder, '--models', 'gpt-9');
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toBe(`agora: --models takes ${RECOMMENDED_LOCAL_MODELS.map((model) => model.id).join(', ')}\n`);
  });
});
