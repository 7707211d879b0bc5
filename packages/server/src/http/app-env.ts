import type { Logger } from 'pino';

/** Request-scoped values carried by Hono's context. */
export interface AppEnv {
  Variables: {
    requestId: string;
    visitorId: string;
    logger: Logger;
  };
}
