import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from '../../../../scripts/network-guard';

describe('the network guard of the test suite', () => {
  it('refuses a connection beyond the loopback addresses before any lookup', () => {
    // `.invalid` never resolves (RFC 6761): even without the guard, nothing would leave the machine.
    expect(() => net.connect({ host: 'agora-guard-check.invalid', port: 80 })).toThrow(/network guard: .*agora-guard-check\.invalid/);
  });

  it('makes fetch fail with the guard as the cause', async () => {
    const failure = await fetch('http://agora-guard-check.invalid/').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String((failure as { cause?: unknown }).cause)).toMatch(/network guard/);
  });

  it('lets loopback connections through', async () => {
    const server = net.createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    server.close();
    expect(reply).toBe('hello');
  });

  it.each([
    ['127.0.0.1', true],
    ['127.3.4.5', true],
    ['localhost', true],
    ['::1', true],
    ['10.0.0.1', false],
    ['192.168.1.1', false],
    ['example.org', false],
    ['127.0.0.1.example.org', false],
  ])('treats %s as loopback: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
