import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_HEADER, arenaContentSchema, contentOverviewSchema, contentPageSchema, errorBodySchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_TTL_MS } from '../src/services/content.service';
import { DIALECTS } from './test-db';
import { type TestArena, jsonRequest, startTestArena, until } from './test-arena';

const ADMIN_TOKEN = 'content-test-admin-token-0123456789';
const TOKEN = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** A signed-in console member: their session cookie and CSRF token, from a one-time link as a browser uses it. */
async function signedIn(arena: TestArena, email: string, role: 'admin' | 'reviewer') {
  const invited = await arena.arena.console.staff.invite(email, role);
  const token = new URL(invited.link).hash.replace('#token=', '');
  const response = await fetch(
    `${arena.baseUrl}/api/v1/staff/activate`,
    jsonRequest('POST', { token, password: 'a long enough password' }, undefined),
  );
  expect(response.status).toBe(200);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const session = (await response.json()) as { csrf_token: string };
  return async (method: string, path: string, body?: unknown) => {
    const answer = await fetch(`${arena.baseUrl}${path}`, jsonRequest(method, body, cookie, { [CSRF_HEADER]: session.csrf_token }));
    const text = await answer.text();
    return { status: answer.status, json: text ? JSON.parse(text) : undefined };
  };
}

const DANISH_TAGS = [
  { tag: 'useful', label: 'Brugbar' },
  { tag: 'incorrect', label: 'Forkert' },
];
const DANISH_SUGGESTIONS = [
  { category: 'write', text: 'Skriv et digt om regn i Aarhus.' },
  { category: 'daily', text: 'Hvordan sparer jeg på varmen?' },
];

describe.each(DIALECTS)('the console’s content ($name)', (dialect) => {
  let first: TestArena;
  let second: TestArena;
  let pages: string;
  beforeAll(async () => {
    pages = mkdtempSync(join(tmpdir(), 'agora-content-pages-'));
    writeFileSync(join(pages, 'privacy.da.md'), '# Privatliv fra mappen\n');
    first = await startTestArena(dialect, { environment: { AGORA_ADMIN_TOKEN: ADMIN_TOKEN } });
    // Another instance on the same store: what one saves, the other serves.
    second = await startTestArena(dialect, { store: first.store, environment: { AGORA_ADMIN_TOKEN: ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    rmSync(pages, { recursive: true, force: true });
  });

  it('serves the tags and suggestions an admin saved, in their language only, on both instances, until reset', async () => {
    const admin = await signedIn(first, 'content-admin@agora.example', 'admin');
    const before = await second.client.request('GET', '/api/v1/content/arena?locale=da');
    expect(arenaContentSchema.parse(before.json)).toEqual({ locale: 'da', tags: null, suggestions: null });
    expect((await admin('PUT', '/api/v1/admin/content/tags/da', { tags: DANISH_TAGS })).status).toBe(200);
    const saved = await admin('PUT', '/api/v1/admin/content/suggestions/da', { suggestions: DANISH_SUGGESTIONS });
    expect(saved).toEqual({ status: 200, json: { locale: 'da', tags: DANISH_TAGS, suggestions: DANISH_SUGGESTIONS } });
    // The second instance read "nothing" a moment ago: it serves the new lists once its copy is older than the TTL.
    const started = Date.now();
    const served = await until(
      () => second.client.request('GET', '/api/v1/content/arena?locale=da'),
      (answer) => answer.json.suggestions !== null && answer.json.tags !== null,
      CONTENT_TTL_MS + 3_000,
    );
    expect(Date.now() - started).toBeLessThan(CONTENT_TTL_MS + 1_000);
    expect(served.json).toEqual({ locale: 'da', tags: DANISH_TAGS, suggestions: DANISH_SUGGESTIONS });
    expect((await first.client.request('GET', '/api/v1/content/arena?locale=sv')).json).toEqual({
      locale: 'sv',
      tags: null,
      suggestions: null,
    });
    const overview = contentOverviewSchema.parse((await admin('GET', '/api/v1/admin/content?locale=da')).json);
    expect(overview).toMatchObject({ tags: DANISH_TAGS, suggestions: DANISH_SUGGESTIONS, pages_read_only: false });
    expect((await admin('DELETE', '/api/v1/admin/content/tags/da')).status).toBe(204);
    expect((await first.client.request('GET', '/api/v1/content/arena?locale=da')).json.tags).toBeNull();
    expect((await admin('DELETE', '/api/v1/admin/content/suggestions/da')).status).toBe(204);
  });

  it('stores a page per language, served by the other instance; a legal notice joins the footer; reset goes back to the bundled text', async () => {
    const admin = await signedIn(first, 'pages-admin@agora.example', 'admin');
    const bundled = contentPageSchema.parse((await admin('GET', '/api/v1/admin/content/pages/privacy/da')).json);
    expect(bundled).toMatchObject({ source: 'bundled', read_only: false, updated_by: null });
    expect(bundled.markdown.length).toBeGreaterThan(100);
    const markdown = '# Privatlivspolitik\n\nVi gemmer **intet** om dig, som du ikke selv skriver.\n';
    const saved = await admin('PUT', '/api/v1/admin/content/pages/privacy/da', { markdown, updated_by: 'someone else' });
    expect(saved.status).toBe(400);
    const stored = contentPageSchema.parse((await admin('PUT', '/api/v1/admin/content/pages/privacy/da', { markdown })).json);
    expect(stored).toMatchObject({ source: 'stored', markdown, updated_by: 'pages-admin@agora.example' });
    const served = await until(
      () => second.client.request('GET', '/api/v1/pages/privacy?locale=da'),
      (answer) => answer.json.markdown === markdown,
      CONTENT_TTL_MS + 3_000,
    );
    expect(served.json).toEqual({ name: 'privacy', locale: 'da', markdown });
    // The other languages keep their bundled text.
    expect((await second.client.request('GET', '/api/v1/pages/privacy?locale=sv')).json.markdown).not.toContain('Vi gemmer');

    expect((await second.client.request('GET', '/api/v1/pages')).json.pages).not.toContain('legal');
    expect(
      (await admin('PUT', '/api/v1/admin/content/pages/legal/lt', { markdown: '# Teisinė informacija\n\nLeidėjas: Testo miestas.\n' }))
        .status,
    ).toBe(200);
    const listed = await until(
      () => second.client.request('GET', '/api/v1/pages'),
      (answer) => (answer.json.pages as string[]).includes('legal'),
      CONTENT_TTL_MS + 3_000,
    );
    expect(listed.json.pages).toEqual(['methodology', 'terms', 'privacy', 'legal', 'accessibility']);
    // Written in Lithuanian alone: a French visitor still reads it (the footer links it for everyone).
    expect((await second.client.request('GET', '/api/v1/pages/legal?locale=fr')).json).toMatchObject({ locale: 'lt' });

    expect((await admin('DELETE', '/api/v1/admin/content/pages/legal/lt')).status).toBe(204);
    expect((await first.client.request('GET', '/api/v1/pages')).json.pages).not.toContain('legal');
    expect((await admin('DELETE', '/api/v1/admin/content/pages/privacy/da')).status).toBe(204);
    expect((await first.client.request('GET', '/api/v1/pages/privacy?locale=da')).json.markdown).toBe(bundled.markdown);
  });

  it('refuses bad input with the JSON error shape, and anyone but an admin', async () => {
    const admin = (method: string, path: string, body?: unknown) => first.client.request(method, path, body, TOKEN);
    const label = (text: string) => ({ tags: [{ tag: 'useful', label: text }] });
    const suggestion = (text: string, category = 'learn') => ({ suggestions: [{ category, text }] });
    const cases: [string, string, unknown][] = [
      ['PUT', '/api/v1/admin/content/tags/da', { tags: [] }],
      ['PUT', '/api/v1/admin/content/tags/da', label('')],
      ['PUT', '/api/v1/admin/content/tags/da', label('   ')],
      ['PUT', '/api/v1/admin/content/tags/da', label('\u200b\u200b')],
      ['PUT', '/api/v1/admin/content/tags/da', label('x'.repeat(41))],
      ['PUT', '/api/v1/admin/content/tags/da', label('Nul\u0000')],
      ['PUT', '/api/v1/admin/content/tags/da', label('Bell\u0007')],
      ['PUT', '/api/v1/admin/content/tags/da', label('two\nlines')],
      ['PUT', '/api/v1/admin/content/tags/da', label('\ud800')],
      ['PUT', '/api/v1/admin/content/tags/da', { tags: [{ tag: 'funny', label: 'Sjov' }] }],
      ['PUT', '/api/v1/admin/content/tags/da', { tags: [DANISH_TAGS[0], { tag: 'useful', label: 'Igen' }] }],
      ['PUT', '/api/v1/admin/content/tags/da', { tags: DANISH_TAGS, extra: 1 }],
      ['PUT', '/api/v1/admin/content/tags/de', { tags: DANISH_TAGS }],
      ['PUT', '/api/v1/admin/content/tags/DA', { tags: DANISH_TAGS }],
      ['PUT', '/api/v1/admin/content/suggestions/da', { suggestions: [] }],
      ['PUT', '/api/v1/admin/content/suggestions/da', suggestion('x'.repeat(301))],
      ['PUT', '/api/v1/admin/content/suggestions/da', suggestion('Hej', 'poetry')],
      ['PUT', '/api/v1/admin/content/suggestions/da', suggestion('Hej\u0000')],
      [
        'PUT',
        '/api/v1/admin/content/suggestions/da',
        { suggestions: Array.from({ length: 41 }, (_, i) => ({ category: 'code', text: `Idé ${i}` })) },
      ],
      [
        'PUT',
        '/api/v1/admin/content/suggestions/da',
        { suggestions: [...suggestion('Hej').suggestions, ...suggestion('Hej').suggestions] },
      ],
      ['PUT', '/api/v1/admin/content/pages/privacy/da', { markdown: '' }],
      ['PUT', '/api/v1/admin/content/pages/privacy/da', { markdown: '# Hej\u0000' }],
      ['PUT', '/api/v1/admin/content/pages/privacy/da', { markdown: 'x'.repeat(100_001) }],
      ['PUT', '/api/v1/admin/content/pages/privacy/da', { markdown: 42 }],
      ['PUT', '/api/v1/admin/content/pages/secrets/da', { markdown: '# Hej' }],
      ['PUT', '/api/v1/admin/content/pages/privacy/..%2F..%2Fetc', { markdown: '# Hej' }],
      ['GET', '/api/v1/admin/content/pages/privacy/xx', undefined],
      ['GET', '/api/v1/admin/content?locale=de', undefined],
      ['GET', '/api/v1/admin/content', undefined],
      ['GET', '/api/v1/content/arena?locale=de', undefined],
      ['GET', '/api/v1/content/arena?locale=da&x=1', undefined],
      ['GET', '/api/v1/content/arena', undefined],
    ];
    for (const [method, path, body] of cases) {
      const answer = await admin(method, path, body);
      expect({ path, body, status: answer.status }).toEqual({ path, body, status: 400 });
      expect(errorBodySchema.parse(answer.json).error.code).toMatch(/^invalid_/);
    }
    const broken = await fetch(`${first.baseUrl}/api/v1/admin/content/tags/da`, jsonRequest('PUT', '{"tags": [', undefined, TOKEN));
    expect(broken.status).toBe(400);
    // Nothing of it was stored.
    expect((await first.client.request('GET', '/api/v1/content/arena?locale=da')).json).toEqual({
      locale: 'da',
      tags: null,
      suggestions: null,
    });

    const reviewer = await signedIn(first, 'content-reviewer@agora.example', 'reviewer');
    expect((await reviewer('GET', '/api/v1/admin/content?locale=da')).status).toBe(403);
    expect((await reviewer('PUT', '/api/v1/admin/content/tags/da', { tags: DANISH_TAGS })).status).toBe(403);
    expect((await first.client.request('PUT', '/api/v1/admin/content/tags/da', { tags: DANISH_TAGS })).status).toBe(401);
  });

  it('shows AGORA_PAGES_DIR’s pages read-only: the folder wins over stored pages, saving is refused', async () => {
    const admin = await signedIn(first, 'folder-admin@agora.example', 'admin');
    const stored = '# Gemt i konsollen\n';
    expect((await admin('PUT', '/api/v1/admin/content/pages/privacy/da', { markdown: stored })).status).toBe(200);
    expect((await admin('PUT', '/api/v1/admin/content/pages/terms/da', { markdown: stored })).status).toBe(200);
    const withFolder = await startTestArena(dialect, {
      store: first.store,
      environment: { AGORA_ADMIN_TOKEN: ADMIN_TOKEN, AGORA_PAGES_DIR: pages },
    });
    try {
      const read = (path: string) => withFolder.client.request('GET', path, undefined, TOKEN);
      expect((await read('/api/v1/admin/content/pages/privacy/da')).json).toMatchObject({
        source: 'folder',
        read_only: true,
        markdown: '# Privatliv fra mappen\n',
      });
      // The folder has no Danish terms: the bundled text, not the console's (the folder is the operator's only source).
      expect((await read('/api/v1/admin/content/pages/terms/da')).json).toMatchObject({ source: 'bundled', read_only: true });
      expect((await read('/api/v1/pages/privacy?locale=da')).json.markdown).toBe('# Privatliv fra mappen\n');
      expect((await read('/api/v1/pages/terms?locale=da')).json.markdown).not.toBe(stored);
      expect((await read('/api/v1/admin/content?locale=da')).json.pages_read_only).toBe(true);
      for (const method of ['PUT', 'DELETE']) {
        const refused = await withFolder.client.request(
          method,
          '/api/v1/admin/content/pages/terms/da',
          method === 'PUT' ? { markdown: '# Nej' } : undefined,
          TOKEN,
        );
        expect(refused.status).toBe(409);
        expect(errorBodySchema.parse(refused.json).error.code).toBe('content_read_only');
      }
      // Tags and suggestions are not pages: still editable.
      expect((await withFolder.client.request('PUT', '/api/v1/admin/content/tags/da', { tags: DANISH_TAGS }, TOKEN)).status).toBe(200);
      expect((await withFolder.client.request('DELETE', '/api/v1/admin/content/tags/da', undefined, TOKEN)).status).toBe(204);
    } finally {
      await withFolder.close();
    }
    // Without the folder, the stored page is served again.
    expect((await first.client.request('GET', '/api/v1/pages/terms?locale=da')).json.markdown).toBe(stored);
  });
});
