import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arenaStatsSchema, errorBodySchema, sitePageSchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena } from './test-arena';

describe.each(DIALECTS)('the site around the arena ($name)', (dialect) => {
  let harness: TestArena;
  let pages: string;
  beforeAll(async () => {
    pages = mkdtempSync(join(tmpdir(), 'agora-pages-'));
    writeFileSync(join(pages, 'legal.fr.md'), '# Mentions légales\n\nÉditeur : la Ville de Test.\n');
    // A folder where a page should be: not a page, and never a 500.
    mkdirSync(join(pages, 'privacy.de.md'));
    harness = await startTestArena(dialect, {
      environment: { AGORA_PAGES_DIR: pages, AGORA_VOTE_GOAL: '50000', AGORA_INTEGRITY_MIN_VOTE_S: '0' },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(async () => {
    await harness.close();
    rmSync(pages, { recursive: true, force: true });
  });

  it('serves the operator’s page first, the bundled one otherwise, in the nearest written language', async () => {
    const get = async (path: string) => harness.client.request('GET', path);
    const legal = await get('/api/v1/pages/legal?locale=fr');
    expect(legal.status).toBe(200);
    expect(legal.headers.get('cache-control')).toBe('public, max-age=300');
    expect(sitePageSchema.parse(legal.json)).toMatchObject({
      name: 'legal',
      locale: 'fr',
      markdown: expect.stringContaining('Ville de Test'),
    });
    // No English legal notice from the operator: their French one (Agora bundles none).
    expect((await get('/api/v1/pages/legal?locale=en')).json).toMatchObject({
      locale: 'fr',
      markdown: expect.stringContaining('Ville de Test'),
    });
    expect((await get('/api/v1/pages/privacy?locale=de')).json).toMatchObject({ locale: 'en' });
    // Danish is bundled: the visitor's own language; German is written by nobody: English.
    expect((await get('/api/v1/pages/methodology?locale=da')).json).toMatchObject({
      locale: 'da',
      markdown: expect.stringContaining('Sådan beregnes ranglisten'),
    });
    expect((await get('/api/v1/pages/methodology?locale=de')).json).toMatchObject({
      locale: 'en',
      markdown: expect.stringContaining('Bradley–Terry'),
    });
    expect((await get('/api/v1/pages/methodology')).json.locale).toBe('en');
    expect((await get('/api/v1/pages/terms?locale=fr')).json.markdown).toContain('Conditions d’utilisation');
    for (const bad of [
      '/api/v1/pages/secrets',
      '/api/v1/pages/..%2F..%2Fetc%2Fpasswd',
      '/api/v1/pages/legal?locale=../x',
      '/api/v1/pages/legal?locale=fr&x=1',
    ]) {
      const response = await get(bad);
      expect(response.status, bad).toBe(400);
      expect(errorBodySchema.parse(response.json).error.code).toBe('invalid_request');
    }
  });

  it('counts the votes for the footer, with the operator’s goal', async () => {
    const before = arenaStatsSchema.parse((await harness.client.request('GET', '/api/v1/stats')).json);
    expect(before).toEqual({ votes: 0, vote_goal: 50000 });
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
    await harness.client.stream(created.json.id);
    expect((await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
    // Counted at most every 30 s: a fresh arena on the same store sees the vote.
    const again = await startTestArena(dialect, { store: harness.store, environment: { AGORA_PAGES_DIR: pages } });
    try {
      expect((await again.client.request('GET', '/api/v1/stats')).json).toEqual({ votes: 1, vote_goal: null });
    } finally {
      await again.close();
    }
  });
});
