import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotatorYaml } from './annotator-fixture';
import { FakeUpstream } from './fake-upstream/fake-upstream';
import { DIALECTS, type TestStore } from './test-db';
import { ArenaClient, until } from './test-arena';

/**
 * Two `agora serve` processes on one PostgreSQL behind a real nginx from Debian's packages, round
 * robin: whole duels through the proxy, streams included, and each background job once.
 */
const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');
const NGINX = '/usr/sbin/nginx';
const agoraBin = fileURLToPath(new URL('../../../bin/agora', import.meta.url));
if (process.env.CI === 'true' && postgres && !existsSync(NGINX)) throw new Error(`CI needs nginx at ${NGINX} for the reverse-proxy test`);

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe.runIf(postgres && existsSync(NGINX))('two instances behind nginx (round robin) on one PostgreSQL', () => {
  let store: TestStore;
  let fake: FakeUpstream;
  let folder: string;
  let proxyUrl: string;
  const processes: ChildProcess[] = [];
  const logs: string[][] = [[], []];

  beforeAll(async () => {
    store = await postgres!.create();
    fake = await new FakeUpstream().start();
    fake.defaultBehaviour = { tokensPerSecond: 60, text: Array.from({ length: 30 }, (_, index) => `mot${index}`).join(' ') };
    fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    folder = mkdtempSync(join(tmpdir(), 'agora-proxy-'));
    writeFileSync(join(folder, 'models.yaml'), catalogueWithAnnotatorYaml(fake.baseUrl));
    const ports = [await freePort(), await freePort(), await freePort()];
    const environment = {
      DATABASE_URL: store.location.kind === 'postgres' ? store.location.url : '',
      AGORA_MODELS: join(folder, 'models.yaml'),
      AGORA_INSTANCES: 'several',
      AGORA_TRUSTED_PROXIES: '127.0.0.1',
      AGORA_ANNOTATION_MODEL: ANNOTATOR.id,
      AGORA_POSTPROCESS_EVERY_S: '0.2',
      AGORA_INTEGRITY_MIN_VOTE_S: '0',
      AGORA_LOG_LEVEL: 'info',
    };
    for (const [index, port] of ports.slice(0, 2).entries()) {
      const child = spawn(agoraBin, ['serve'], {
        env: { ...process.env, ...environment, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      child.stdout.on('data', (chunk: Buffer) => logs[index]!.push(...chunk.toString().split('\n').filter(Boolean)));
      processes.push(child);
    }
    for (const lines of logs)
      await until(
        async () => lines.some((line) => line.includes('agora is listening')),
        (ready) => ready,
        30_000,
      );
    writeFileSync(
      join(folder, 'nginx.conf'),
      `daemon off;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log warn;
events {}
http {
  access_log off;
  client_body_temp_path ${folder}/body;
  proxy_temp_path ${folder}/proxy;
  fastcgi_temp_path ${folder}/fastcgi;
  uwsgi_temp_path ${folder}/uwsgi;
  scgi_temp_path ${folder}/scgi;
  upstream arena { server 127.0.0.1:${ports[0]}; server 127.0.0.1:${ports[1]}; keepalive 16; }
  server {
    listen 127.0.0.1:${ports[2]};
    location / {
      proxy_pass http://arena;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      # Streams go through as they come.
      proxy_buffering off;
      proxy_read_timeout 120s;
    }
  }
}
`,
    );
    execFileSync(NGINX, ['-t', '-c', join(folder, 'nginx.conf'), '-p', folder], { stdio: 'ignore' });
    const nginx = spawn(NGINX, ['-c', join(folder, 'nginx.conf'), '-p', folder], { stdio: 'ignore' });
    processes.push(nginx);
    proxyUrl = `http://127.0.0.1:${ports[2]}`;
    await until(
      () =>
        fetch(`${proxyUrl}/healthz`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
      10_000,
    );
  }, 60_000);

  afterAll(async () => {
    for (const child of processes.reverse()) {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve(null)));
    }
    await fake?.stop();
    await store?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('plays whole duels through the proxy, streams included, and annotates each conversation once', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 4; index++) {
      const visitor = new ArenaClient(proxyUrl);
      const created = await visitor.request('POST', '/api/v1/duels', { prompt: `Conversation ${index}` });
      expect(created.status).toBe(201);
      const first = await visitor.stream(created.json.id);
      expect(first.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
      expect(first.filter((frame) => frame.event.type === 'text-delta').length).toBeGreaterThan(10);
      expect((await visitor.request('POST', `/api/v1/duels/${created.json.id}/messages`, { prompt: 'Et après ?' })).status).toBe(201);
      const second = await visitor.stream(created.json.id, { turn: 2 });
      expect(second.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
      expect((await visitor.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
      ids.push(created.json.id as string);
    }
    // Both instances served requests: the proxy spread them.
    for (const lines of logs) expect(lines.filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThan(3);
    for (const lines of logs) expect(lines.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
    // Post-processing ran once per conversation, whichever instance held the lease.
    await until(
      async () => fake.requestsFor(ANNOTATOR.upstream).filter((request) => request.completed).length,
      (count) => count >= ids.length,
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(fake.requestsFor(ANNOTATOR.upstream)).toHaveLength(ids.length);
  }, 90_000);
});
