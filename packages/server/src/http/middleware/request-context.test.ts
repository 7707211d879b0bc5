import { Hono } from 'hono';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../app-env';
import { requestContext } from './request-context';

function appWithRequestIds(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use('*', requestContext(pino({ enabled: false })));
  app.get('/', (c) => c.text(c.get('requestId')));
  return app;
}

describe('request ids', () => {
  it("gives every request of a server its own id, different from another server's, echoed in the header", async () => {
    const [first, second] = [appWithRequestIds(), appWithRequestIds()];
    const ids = await Promise.all(
      Array.from({ length: 500 }, async (_, index) => {
        const response = await (index % 2 === 0 ? first : second).request('/');
        const id = await response.text();
        expect(response.headers.get('x-request-id')).toBe(id);
        expect(id).toMatch(/^[A-Za-z0-9_-]{8}-[0-9a-z]+$/);
        return id;
      }),
    );
    expect(new Set(ids).size).toBe(500);
    // The prefix is 8 base64url characters, which may include '-'.
    const prefixes = new Set(ids.map((id) => id.slice(0, 8)));
    expect(prefixes.size).toBe(2);
  });

  it('keeps a well-formed incoming id and replaces a malformed one', async () => {
    const app = appWithRequestIds();
    expect(await (await app.request('/', { headers: { 'x-request-id': 'trace-123' } })).text()).toBe('trace-123');
    expect(await (await app.request('/', { headers: { 'x-request-id': 'bad id with spaces' } })).text()).not.toContain('bad');
  });
});
