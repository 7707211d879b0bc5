import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/http/openapi';
import { startInProcessArena } from './harness';

/** `METHOD /path/{param}` of every route the app answers (a parameter's pattern, `:path{.+}`, left out), middleware and the web app's fallback left out. */
function routesOf(routes: readonly { method: string; path: string }[]): string[] {
  const found = routes
    .filter(({ method, path }) => method !== 'ALL' && !path.endsWith('*') && path !== '/')
    .map(({ method, path }) => `${method} ${path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}')}`);
  return [...new Set(found)].sort();
}

describe('the OpenAPI document', () => {
  it('lists every route of the app, and no route the app does not answer', async () => {
    const arena = await startInProcessArena();
    try {
      const documented = Object.entries((buildOpenApiDocument(1000) as { paths: Record<string, Record<string, unknown>> }).paths)
        .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
        .sort();
      expect(routesOf(arena.arena.app.routes)).toEqual(documented);
    } finally {
      await arena.close();
    }
  });
});
