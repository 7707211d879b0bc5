import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
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
 * Security headers on every answer, pages, API and turn streams alike: a Content-Security-Policy
 * without `unsafe-inline` scripts (the page's own inline scripts by hash), no framing
 * (`frame-ancestors 'none'`, the vote page cannot be clickjacked), `nosniff`, a strict referrer
 * policy and the usual isolation headers. HTTPS (HSTS) is the proxy's business: a header sent over
 * plain HTTP by a local arena would be ignored anyway. Styles allow inline attributes: the UI sets
 * a few, and a style cannot run code.
 */
export function securityHeaderValues(inlineScripts: readonly string[]): Readonly<Record<string, string>> {
  const policy = [
    "default-src 'self'",
    ["script-src 'self'", ...inlineScripts].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'content-security-policy': policy,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'DENY',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

/**
 * Sets {@link securityHeaderValues} on every answer. A turn stream writes its head itself (http/sse.ts):
 * it reads the same values from the context.
 */
export function securityHeaders(inlineScripts: readonly string[]): MiddlewareHandler<AppEnv> {
  const headers = Object.entries(securityHeaderValues(inlineScripts));
  const record = Object.fromEntries(headers);
  return async (c, next) => {
    c.set('securityHeaders', record);
    await next();
    for (const [name, value] of headers) c.res.headers.set(name, value);
  };
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
