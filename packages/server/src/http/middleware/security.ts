import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { AppError } from '../../services/app-error';
import type { AppEnv } from '../app-env';

/**
 * The `'sha256-…'` sources of the page's inline scripts (the theme set before first paint, the
 * SvelteKit bootstrap): the policy allows exactly these and no other inline script.
 */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
  );
}

/**
 * Security headers on every answer: a Content-Security-Policy without `unsafe-inline` scripts
 * (the page's own inline scripts by hash), no framing (`frame-ancestors 'none'`, the vote page
 * cannot be clickjacked), `nosniff`, a strict referrer policy, and hono's other defaults.
 * Styles allow inline attributes: the UI sets a few, and a style cannot run code.
 */
export function securityHeaders(inlineScripts: readonly string[]): MiddlewareHandler<AppEnv> {
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...inlineScripts],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      fontSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xFrameOptions: 'DENY',
    referrerPolicy: 'strict-origin-when-cross-origin',
    // HTTPS is the proxy's business; a header sent over plain HTTP by a local arena would be ignored anyway.
    strictTransportSecurity: false,
  });
}

/**
 * Request bodies of the API are JSON: any other declared type is refused with 415 before it is
 * read (a form post from another site cannot reach a handler either), and a body that is not UTF-8
 * with 400 (the body is read once here; the handler reads it from Hono's cache).
 */
export function requireJsonBodies(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const method = c.req.method;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
      const hasBody = c.req.header('transfer-encoding') !== undefined || Number(c.req.header('content-length') ?? '0') > 0;
      const type = c.req.header('content-type');
      if (hasBody && !(type !== undefined && /^application\/json\s*(;|$)/i.test(type)))
        throw new AppError('unsupported_media_type', 'request bodies are JSON: send Content-Type: application/json');
      // JSON is UTF-8: bytes that are not would reach the store as U+FFFD, a prompt nobody wrote.
      if (hasBody && !isUtf8(await c.req.arrayBuffer())) throw new AppError('invalid_json', 'the request body is not valid UTF-8');
    }
    await next();
  };
}
