import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type TestDialect, type TestStore } from './test-db';
import { until } from './test-arena';

/**
 * Several `agora serve` processes on one PostgreSQL behind a real nginx from Debian's packages,
 * round robin: what an operator runs with AGORA_INSTANCES=several (docs/operations.md).
 */

export const NGINX = '/usr/sbin/nginx';
const agoraBin = fileURLToPath(new URL('../../../bin/agora', import.meta.url));

/** Whether the tests behind nginx can run here: PostgreSQL, and nginx, which CI must have. */
export function canRunBehindNginx(postgres: TestDialect | undefined): boolean {
  if (process.env.CI === 'true' && postgres && !existsSync(NGINX)) throw new Error(`CI needs nginx at ${NGINX} for the tests behind nginx`);
  return postgres !== undefined && existsSync(NGINX);
}

/** One `agora serve` process: where it listens, and what it printed (its JSON log lines). */
export interface ServeInstance {
  url: string;
  process: ChildProcess;
  logs: string[];
}

export interface ProxiedInstances {
  store: TestStore;
  proxyUrl: string;
  instances: ServeInstance[];
  /** Stops nginx and every instance still running (SIGTERM, waited for), then drops the store. */
  close(): Promise<void>;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/**
 * Starts `count` instances on a fresh PostgreSQL store with the catalogue `modelsYaml` and
 * `environment` (AGORA_INSTANCES=several is set), waits until each listens, then nginx in front of
 * them, and waits until it answers.
 */
export async function startProxiedInstances(
  postgres: TestDialect,
  options: { count: number; modelsYaml: string; environment: Record<string, string> },
): Promise<ProxiedInstances> {
  const store = await postgres.create();
  const folder = mkdtempSync(join(tmpdir(), 'agora-proxy-'));
  writeFileSync(join(folder, 'models.yaml'), options.modelsYaml);
  const environment = {
    DATABASE_URL: store.location.kind === 'postgres' ? store.location.url : '',
    AGORA_MODELS: join(folder, 'models.yaml'),
    AGORA_INSTANCES: 'several',
    AGORA_TRUSTED_PROXIES: '127.0.0.1',
    AGORA_LOG_LEVEL: 'info',
    ...options.environment,
  };
  const ports = await Promise.all(Array.from({ length: options.count + 1 }, freePort));
  const instances = ports.slice(0, options.count).map((port) => startInstance(port, environment));
  const processes = instances.map((instance) => instance.process);
  const close = async () => {
    for (const child of processes.reverse()) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.once('exit', resolve) : resolve(null)));
    }
    await store.drop();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    for (const { logs } of instances)
      await until(
        async () => logs.some((line) => line.includes('agora is listening')),
        (ready) => ready,
        30_000,
      );
    processes.push(startNginx(folder, ports.slice(0, options.count), ports.at(-1)!));
    const proxyUrl = `http://127.0.0.1:${ports.at(-1)}`;
    await until(
      () =>
        fetch(`${proxyUrl}/healthz`).then(
          (response) => response.status,
          () => 0,
        ),
      (status) => status === 200,
      10_000,
    );
    return { store, proxyUrl, instances, close };
  } catch (error) {
    // Nothing is left running when the start fails.
    await close();
    throw error;
  }
}

function startInstance(port: number, environment: Record<string, string>): ServeInstance {
  const child = spawn(agoraBin, ['serve'], {
    env: { ...process.env, ...environment, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const logs: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean)));
  return { url: `http://127.0.0.1:${port}`, process: child, logs };
}

/** nginx round robin over the instances, streams passed through as they come; checked with -t first. */
function startNginx(folder: string, upstreamPorts: readonly number[], port: number): ChildProcess {
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
  upstream arena { ${upstreamPorts.map((upstream) => `server 127.0.0.1:${upstream};`).join(' ')} keepalive 16; }
  server {
    listen 127.0.0.1:${port};
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
  return spawn(NGINX, ['-c', join(folder, 'nginx.conf'), '-p', folder], { stdio: 'ignore' });
}
