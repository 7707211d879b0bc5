import { serve, type ServerType } from '@hono/node-server';
import type { Config } from '../config/config';
import { TrustedProxies } from '../http/client-address';
import { limitConnectionsPerClient } from '../http/connection-limits';
import type { Arena } from './arena';

/** The address is taken (another Agora, or anything else): one line for the operator, not a stack trace. */
export class AddressInUseError extends Error {
  override readonly name = 'AddressInUseError';
}

/** Listens on the configured address; resolves once the socket is bound, rejects with {@link AddressInUseError} when it is taken. */
export function listen(
  arena: Arena,
  config: Pick<Config, 'port' | 'host' | 'requestTimeoutMs' | 'maxConnectionsPerClient' | 'trustedProxies'>,
): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve(
      {
        fetch: arena.app.fetch,
        port: config.port,
        hostname: config.host,
        // How often Node looks for requests past their time (30 s by default, longer than the limit itself).
        serverOptions: { connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs / 2) },
      },
      (info) => {
        arena.logger.info({ url: `http://${config.host}:${info.port}` }, 'agora is listening');
        resolve(server);
      },
    );
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new AddressInUseError(
              `port ${config.port} on ${config.host} is already in use: stop the program that holds it, or start Agora on another port (PORT=3001 npm start)`,
            )
          : error,
      );
    });
    if ('keepAliveTimeout' in server) {
      // Longer than the usual proxy and client idle timeouts, so that the server is never the side that
      // closes an idle keep-alive connection a client is about to reuse (that client would see ECONNRESET).
      server.keepAliveTimeout = 65_000;
      // A request's headers and body must arrive in time: slow bodies (slowloris) are cut off with 408.
      // Streams are answers, not requests: they are not bounded by this.
      server.requestTimeout = config.requestTimeoutMs;
      server.headersTimeout = Math.min(20_000, config.requestTimeoutMs);
      limitConnectionsPerClient(server, config.maxConnectionsPerClient, new TrustedProxies(config.trustedProxies));
    }
  });
}

/** Stops taking connections, lets running turns finish and be stored, then exits. */
export function closeOnSignals(arena: Arena, server: ServerType): void {
  const shutdown = (signal: string) => {
    arena.logger.info({ signal }, 'shutting down');
    server.close();
    void arena.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}
