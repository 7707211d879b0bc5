import type { Logger } from 'pino';

/** Request-scoped values carried by Hono's context. */
export interface AppEnv {
  Variables: {
    requestId: string;
    visitorId: string;
    /** The `Set-Cookie` value when this request created the visitor cookie (for answers written outside Hono). */
    newVisitorCookie: string | undefined;
    /** The security headers of every answer (middleware/security.ts), for a stream that writes its own head. */
    securityHeaders: Readonly<Record<string, string>>;
    logger: Logger;
  };
}
