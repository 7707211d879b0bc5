import net from 'node:net';

/**
 * Loaded before every test file (vitest `setupFiles`): tests may open connections to this machine's
 * loopback addresses only. A connection to any other host throws at once, before a DNS lookup or a
 * packet leaves, naming the host, so that a test that reaches for the network fails instead of
 * depending on it (or sending traffic where it must not).
 */
const loopbackHosts = new Set(['localhost', '::1', '[::1]', '::ffff:127.0.0.1']);

export function isLoopbackHost(host: string | undefined): boolean {
  return host === undefined || loopbackHosts.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

type ConnectArguments = Parameters<typeof net.Socket.prototype.connect>;

/** The host a `Socket#connect` call targets, or null for a Unix socket (always local). */
function targetHost(args: unknown[]): string | undefined | null {
  // Node passes its own calls as one normalized array `[options, callback]`.
  const first: unknown = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === 'object' && first !== null) {
    const options = first as { path?: string; host?: string };
    return options.path ? null : options.host;
  }
  if (typeof first === 'string' && !/^\d+$/.test(first)) return null;
  return typeof args[1] === 'string' ? args[1] : undefined;
}

// eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with each socket as `this` (connect.apply below)
const connect = net.Socket.prototype.connect;
// Once per worker: the fast layer runs many test files in one worker, each loading this file again.
if (connect.name !== 'guardedConnect') {
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: ConnectArguments) {
    const host = targetHost(args);
    if (host !== null && !isLoopbackHost(host)) {
      throw new Error(`network guard: tests may only connect to 127.0.0.1 and ::1, not to ${host}`);
    }
    return connect.apply(this, args);
  } as typeof connect;
}
