import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INTERFACE_LOCALES, arenaStatsSchema, errorBodySchema, sitePageListSchema, sitePageSchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusOfCode } from '../../src/http/errors';
import { AppError } from '../../src/services/app-error';
import { BUNDLED_PAGES, sitePageFiles } from '../../src/adapters/site-page-files';
import { SiteService } from '../../src/services/site.service';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';

/**
 * The site around the arena in process (services/site.service.ts): the operator's pages in the
 * visitor's language or the nearest written one, and the vote counter. The operator wrote one page,
 * in French, in a folder of their own; Agora's bundled pages (every interface language) cover the
 * rest, except the legal notice, which only an operator can write.
 */

let harness: InProcessArena;
let pagesDir: string;
beforeAll(async () => {
  pagesDir = mkdtempSync(join(tmpdir(), 'agora-in-process-pages-'));
  writeFileSync(join(pagesDir, 'legal.fr.md'), '# Mentions légales\n\nÉditeur : la Ville de Test.\n');
  harness = await startInProcessArena({
    AGORA_PAGES_DIR: pagesDir,
    AGORA_VOTE_GOAL: '50000',
    AGORA_INTEGRITY_MIN_VOTE_S: '0',
    AGORA_PUBLIC: '1',
    AGORA_OPERATOR_CONTACT: 'privacy@agora.example',
  });
});
afterAll(async () => {
  await harness.close();
  rmSync(pagesDir, { recursive: true, force: true });
});

const get = (path: string) => harness.visitor().request('GET', path);

describe('the operator’s pages, in process', () => {
  it('serves a page in the visitor’s language when it is written, cacheable for five minutes', async () => {
    const terms = await get('/api/v1/pages/terms?locale=fr');
    expect(terms.status).toBe(200);
    expect(terms.headers.get('cache-control')).toBe('public, max-age=300');
    expect(sitePageSchema.parse(terms.json)).toMatchObject({
      name: 'terms',
      locale: 'fr',
      markdown: expect.stringContaining('Conditions d’utilisation'),
    });
  });

  it('ships every bundled page in every interface language, each a text of its own', async () => {
    for (const name of ['methodology', 'terms', 'privacy', 'accessibility'] as const) {
      const texts = new Set<string>();
      for (const locale of INTERFACE_LOCALES) {
        const page = sitePageSchema.parse((await get(`/api/v1/pages/${name}?locale=${locale}`)).json);
        expect({ name, locale: page.locale }).toEqual({ name, locale });
        texts.add(page.markdown);
      }
      expect(texts.size, name).toBe(INTERFACE_LOCALES.length);
    }
  });

  it('falls back to English for a language nobody wrote, and without a language', async () => {
    expect((await get('/api/v1/pages/privacy?locale=de')).json).toMatchObject({ name: 'privacy', locale: 'en' });
    expect((await get('/api/v1/pages/methodology?locale=de')).json).toMatchObject({
      locale: 'en',
      markdown: expect.stringContaining('Bradley–Terry'),
    });
    expect((await get('/api/v1/pages/accessibility')).json.locale).toBe('en');
  });

  it('lists the pages that have a text and the operator’s contact; an unwritten legal notice is not listed', async () => {
    const listed = await get('/api/v1/pages');
    expect(listed.status).toBe(200);
    expect(sitePageListSchema.parse(listed.json)).toEqual({
      pages: ['methodology', 'terms', 'privacy', 'legal', 'accessibility'],
      operator_contact: 'privacy@agora.example',
    });
    const bundledOnly = new SiteService(harness.arena.store, [sitePageFiles(BUNDLED_PAGES)]);
    expect(await bundledOnly.pages()).toEqual({ pages: ['methodology', 'terms', 'privacy', 'accessibility'], operator_contact: null });
    await expect(bundledOnly.page('legal', 'en')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('prefers any text the operator wrote to a bundled one, even in another language than the visitor’s', async () => {
    for (const locale of ['fr', 'en', 'de']) {
      const legal = await get(`/api/v1/pages/legal?locale=${locale}`);
      expect(legal.json, locale).toEqual({ name: 'legal', locale: 'fr', markdown: '# Mentions légales\n\nÉditeur : la Ville de Test.\n' });
    }
    // A page the operator did not write is the bundled one.
    expect((await get('/api/v1/pages/privacy?locale=fr')).json).toMatchObject({
      locale: 'fr',
      markdown: expect.not.stringContaining('Ville de Test'),
    });
  });

  it('refuses an unknown page, a bad language and an unknown parameter with the JSON error shape', async () => {
    const cases: [string, number, string][] = [
      ['/api/v1/pages/secrets', 400, 'invalid_request'],
      ['/api/v1/pages/..%2F..%2Fetc%2Fpasswd', 400, 'invalid_request'],
      ['/api/v1/pages/legal?locale=../x', 400, 'invalid_request'],
      ['/api/v1/pages/legal?locale=FR', 400, 'invalid_request'],
      ['/api/v1/pages/legal?locale=fr&x=1', 400, 'invalid_request'],
      ['/api/v1/pages/', 404, 'not_found'],
      ['/api/v1/pages/legal/fr', 404, 'not_found'],
    ];
    for (const [path, status, code] of cases) {
      const answer = await get(path);
      expect({ path, status: answer.status }).toEqual({ path, status });
      expect(errorBodySchema.parse(answer.json).error.code, path).toBe(code);
    }
  });

  it('answers not found for a page no source has written, in any language', async () => {
    const nothingWritten = new SiteService(harness.arena.store, [() => Promise.resolve(undefined)]);
    const refused = await nothingWritten.page('legal', 'fr').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'not_found', message: expect.stringContaining('legal') });
    expect(statusOfCode[(refused as AppError).code]).toBe(404);
  });
});

describe('the vote counter, in process', () => {
  /** Plays a duel and votes on it, as a visitor of its own. */
  async function vote(): Promise<void> {
    const visitor = harness.visitor();
    const { id } = await visitor.playedDuel([TEST_MODELS[0].id, TEST_MODELS[1].id]);
    const answer = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' });
    if (answer.status !== 200) throw new Error(`vote refused: ${JSON.stringify(answer.json)}`);
  }

  it('counts the votes with the operator’s goal, and counts again only every 30 seconds', async () => {
    const before = await harness.arena.store.feedback.countVotes();
    await vote();
    await vote();
    // Read once through the route: the arena's counter keeps what it read for 30 s of the process's clock.
    const stats = await get('/api/v1/stats');
    expect(stats.headers.get('cache-control')).toBe('public, max-age=30');
    expect(arenaStatsSchema.parse(stats.json)).toEqual({ votes: before + 2, vote_goal: 50000 });

    const counter = new SiteService(harness.arena.store, [], {}, () => harness.runtime.now().getTime());
    expect(await counter.voteCounter()).toEqual({ votes: before + 2, vote_goal: null });
    await vote();
    harness.runtime.advance(29_999);
    expect((await counter.voteCounter()).votes).toBe(before + 2);
    harness.runtime.advance(1);
    expect((await counter.voteCounter()).votes).toBe(before + 3);
  });
});
