import type { Server } from 'node:http';
import type { TrustedProxies } from './client-address';

/**
 * Caps the connections one client address holds at once: slow or idle sockets opened by the
 * hundred from one machine would otherwise hold the server's memory and file descriptors. A
 * trusted proxy is exempt (every visitor comes through it). A refused connection is closed at once.
 */
export function limitConnectionsPerClient(server: Server, maxPerClient: number, trusted: TrustedProxies): void {
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    if (trusted.has(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= maxPerClient) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
