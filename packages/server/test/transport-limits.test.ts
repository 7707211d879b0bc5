import { type Socket, connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena } from './test-arena';

/** A raw connection to the arena, with what it received and whether the server closed it. */
function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1');
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.once('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => received, closed }));
    socket.once('error', reject);
  });
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe('connections: slow bodies are cut off, one address cannot hold the server', () => {
  let harness: TestArena;
  let port: number;
  beforeAll(async () => {
    harness = await startTestArena(DIALECTS[0]!, {
      environment: { AGORA_REQUEST_TIMEOUT_S: '1', AGORA_MAX_CONNECTIONS_PER_CLIENT: '3' },
    });
    port = Number(new URL(harness.baseUrl).port);
  });
  afterAll(() => harness.close());

  it('answers 408 and closes a request whose body does not arrive in time', async () => {
    const slow = await open(port);
    slow.socket.write('POST /api/v1/duels HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"prom');
    expect(await within(slow.closed, 5000)).toBe(true);
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a client’s connection past its limit at once, and takes it again once one is closed', async () => {
    const held = await Promise.all([open(port), open(port), open(port)]);
    const extra = await open(port);
    expect(await within(extra.closed, 2000)).toBe(true);
    expect(extra.received()).toBe('');
    held[0].socket.destroy();
    await held[0].closed;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const again = await open(port);
    again.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await within(again.closed, 2000);
    expect(again.received()).toMatch(/^HTTP\/1\.1 200/);
    for (const { socket } of held) socket.destroy();
  });
});

describe('the visitor cookie', () => {
  it('is HttpOnly and SameSite=Lax, and Secure when the arena says it is served over HTTPS', async () => {
    for (const secure of [false, true]) {
      const harness = await startTestArena(DIALECTS[0]!, { environment: { AGORA_COOKIE_SECURE: String(secure) } });
      try {
        const response = await fetch(`${harness.baseUrl}/api/v1/duels/AAAAAAAAAAAAAAAAAAAAAA`);
        const cookie = response.headers.get('set-cookie') ?? '';
        expect(cookie).toMatch(/^agora_visitor=[A-Za-z0-9_-]{22};/);
        expect(cookie).toContain('HttpOnly');
        expect(cookie).toContain('SameSite=Lax');
        expect(cookie.includes('Secure')).toBe(secure);
      } finally {
        await harness.close();
      }
    }
  });
});
