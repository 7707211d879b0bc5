import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgora } from './run-agora';

describe('agora serve', () => {
  let blocker: Server;
  let port: number;
  let folder: string;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'agora-serve-'));
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    port = (blocker.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker.close(resolve));
    rmSync(folder, { recursive: true, force: true });
  });

  it('on a port already in use says so in one line and exits 2, no stack trace', async () => {
    const outcome = await runAgora(['serve', '--port', String(port), '--host', '127.0.0.1'], '', {
      DATABASE_URL: `sqlite:${join(folder, 'arena.db')}`,
      AGORA_MODELS: fileURLToPath(new URL('../../../models.demo.yaml', import.meta.url)),
      AGORA_LOG_LEVEL: 'silent',
    });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr.trim().split('\n')).toEqual([
      `agora: port ${port} on 127.0.0.1 is already in use: stop the program that holds it, or start Agora on another port (PORT=3001 npm start)`,
    ]);
  });
});
