import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MODELS, type TestArena } from '../packages/server/test/test-arena';
import { da } from '../packages/web/src/lib/i18n/model-profiles/da';
import { en } from '../packages/web/src/lib/i18n/model-profiles/en';
import { fr } from '../packages/web/src/lib/i18n/model-profiles/fr';
import { lt } from '../packages/web/src/lib/i18n/model-profiles/lt';
import { sv } from '../packages/web/src/lib/i18n/model-profiles/sv';
import { axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { leaksOn } from './language-leak';
import { LOCALES, VIEWPORTS } from './locales';

/*
 * The model sheet's evidence and the head-to-head page in a real browser (issue 34, item 4): after
 * seven votes, the sheet of A shows its record against B as counted (2 wins, 1 tie, 1 both bad,
 * 0 losses of 4), its tags and languages; its matrix links to A versus B, which links back the
 * other way. In each language at desktop and phone width: axe, no string of another language, no
 * sideways scroll, screenshots.
 */

const PROFILE_MESSAGES: Record<string, Record<keyof typeof fr, string>> = { fr, en, da, sv, lt };
const [A, B, C] = [TEST_MODELS[0], TEST_MODELS[1], TEST_MODELS[2]];

function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

describe('model sheet and head-to-head', () => {
  let arena: TestArena;
  let browser: Browser;

  /** One duel voted through the API; `outcome` from first's side. */
  async function play(
    first: string,
    second: string,
    outcome: 'first' | 'second' | 'tie' | 'both_bad',
    locale: string,
    tags: string[] = [],
  ) {
    const created = await arena.client.request('POST', '/api/v1/duels', {
      prompt: 'Bonjour',
      mode: 'custom',
      models: [first, second],
      locale,
    });
    await arena.client.stream(created.json.id);
    const duel = (await arena.arena.store.duels.findById(created.json.id))!;
    const firstSide = duel.modelA === first ? 'a' : 'b';
    const choice = outcome === 'first' ? firstSide : outcome === 'second' ? (firstSide === 'a' ? 'b' : 'a') : outcome;
    const vote = await arena.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice, tags: { [firstSide]: tags } });
    expect(vote.status).toBe(200);
  }

  beforeAll(async () => {
    [arena, browser] = await Promise.all([
      startArena({ AGORA_POSTPROCESS: '0', AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1', AGORA_LEADERBOARD_MIN_VOTES: '3' }),
      launchBrowser(),
    ]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Une réponse courte.' };
    await play(A.id, B.id, 'first', 'fr', ['useful', 'complete']);
    await play(A.id, B.id, 'first', 'fr', ['useful']);
    await play(A.id, B.id, 'tie', 'en');
    await play(A.id, B.id, 'both_bad', 'da', ['superficial']);
    await play(B.id, C.id, 'first', 'sv');
    await play(A.id, C.id, 'second', 'lt');
    await play(C.id, B.id, 'first', 'fr');
    await arena.arena.leaderboardRefresh.idle();
    arena.arena.leaderboardRefresh.trigger();
    await arena.arena.leaderboardRefresh.idle();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  async function checkPage(page: Page, language: (typeof LOCALES)[number], name: string): Promise<string[]> {
    const problems: string[] = [];
    problems.push(...(await axeViolations(page)).map((violation) => `${name} axe: ${violation}`));
    problems.push(...(await leaksOn(page, language.slice(0, 2) as 'fr')).map((leak) => `${name} leak: ${leak}`));
    if (await hasHorizontalOverflow(page)) problems.push(`${name}: sideways scroll`);
    await screenshot(page, name);
    return problems;
  }

  it.each(LOCALES)(
    'in %s at both widths, the sheet counts the votes and links to a head-to-head that links back',
    async (locale) => {
      const messages = PROFILE_MESSAGES[locale.slice(0, 2)]!;
      const problems: string[] = [];
      for (const [width, viewport] of VIEWPORTS) {
        const { page, context, errors } = await newPage(browser, { locale, viewport });
        await page.goto(`${arena.baseUrl}/models/${A.id}`);
        await page.getByTestId('profile-matrix').waitFor();
        const row = page.locator(`[data-opponent="${B.id}"]`);
        expect((await row.getByTestId('matrix-record').innerText()).trim()).toBe(
          fill(messages['profile.record'], { wins: 2, ties: 1, both_bad: 1, losses: 0, n: 4 }),
        );
        expect(await page.getByTestId('profile-ratings').locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
        expect(await page.getByTestId('profile-vote-tags').locator('tbody tr').count()).toBe(3);
        // A's counted votes: fr 2, en 1, da 1, lt 1.
        expect(await page.getByTestId('profile-languages').locator('tbody tr').count()).toBe(4);
        problems.push(...(await checkPage(page, locale, `model-profile-sheet-${locale}-${width}`)));

        await row.getByTestId('matrix-vs').click();
        await page.getByTestId('vs-title').waitFor();
        expect(page.url()).toBe(`${arena.baseUrl}/models/${A.id}/vs/${B.id}`);
        expect((await page.getByTestId('vs-title').innerText()).trim()).toBe(fill(messages['profile.vs_title'], { a: A.name, b: B.name }));
        expect((await page.getByTestId('vs-record').innerText()).trim()).toBe(
          fill(messages['profile.vs_record'], { a: A.name, wins: 2, ties: 1, both_bad: 1, losses: 0, n: 4 }),
        );
        expect(await page.getByTestId('vs-views').locator('tbody tr').count()).toBeGreaterThanOrEqual(2);
        problems.push(...(await checkPage(page, locale, `model-profile-vs-${locale}-${width}`)));

        await page.getByTestId('vs-swap').click();
        await expect.poll(() => page.url()).toBe(`${arena.baseUrl}/models/${B.id}/vs/${A.id}`);
        await expect
          .poll(async () => (await page.getByTestId('vs-title').innerText()).trim())
          .toBe(fill(messages['profile.vs_title'], { a: B.name, b: A.name }));
        expect(errors).toEqual([]);
        await context.close();
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
