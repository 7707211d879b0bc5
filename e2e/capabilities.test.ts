import type { LeaderboardBody } from '@agora/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MODELS, type TestArena, until } from '../packages/server/test/test-arena';
import { da } from '../packages/web/src/lib/i18n/capabilities/da';
import { en } from '../packages/web/src/lib/i18n/capabilities/en';
import { fr } from '../packages/web/src/lib/i18n/capabilities/fr';
import { lt } from '../packages/web/src/lib/i18n/capabilities/lt';
import { sv } from '../packages/web/src/lib/i18n/capabilities/sv';
import { axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { leaksOn } from './language-leak';
import { LOCALES, VIEWPORTS } from './locales';

/*
 * The leaderboard's capability filter in a real browser (issue 34, item 3): three math duels
 * (labelled by the rules in post-processing) and one greeting; the filter offers the math view with
 * its 3 votes in the page's language, and choosing it shows the math board's three models. In
 * each language at desktop and phone width: axe, no string of another language, no sideways
 * scroll, screenshots.
 */

const MESSAGES: Record<string, Record<keyof typeof fr, string>> = { fr, en, da, sv, lt };
const [A, B, C, D] = [TEST_MODELS[0], TEST_MODELS[1], TEST_MODELS[2], TEST_MODELS[3]];

describe('the capability filter of the leaderboard', () => {
  let arena: TestArena;
  let browser: Browser;

  async function play(first: string, second: string, prompt: string) {
    const created = await arena.client.request('POST', '/api/v1/duels', { prompt, mode: 'custom', models: [first, second], locale: 'fr' });
    await arena.client.stream(created.json.id);
    const duel = (await arena.arena.store.duels.findById(created.json.id))!;
    const vote = await arena.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: duel.modelA === first ? 'a' : 'b' });
    expect(vote.status).toBe(200);
  }

  beforeAll(async () => {
    [arena, browser] = await Promise.all([
      startArena({
        AGORA_POSTPROCESS_EVERY_S: '0.1',
        AGORA_POSTPROCESS_IDLE_S: '0',
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        AGORA_LEADERBOARD_MIN_VOTES: '3',
        AGORA_LEADERBOARD_EVERY_S: '0.5',
      }),
      launchBrowser(),
    ]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Une réponse courte.' };
    await play(A.id, B.id, 'Calcule 17 × 23 et explique le calcul.');
    await play(B.id, C.id, 'Résous l’équation 2x + 5 = 11.');
    await play(A.id, C.id, 'Quelle est la dérivée de x^3 ?');
    await play(C.id, D.id, 'Bonjour !');
    await until(
      async () => (await arena.client.request('GET', '/api/v1/leaderboard?capability=math')).json as LeaderboardBody,
      (body) => body.n_votes === 3 && body.models.length === 3,
      30_000,
    );
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it.each(LOCALES)(
    'in %s at both widths, offers the math view with its votes and shows its board',
    async (locale) => {
      const messages = MESSAGES[locale.slice(0, 2)]!;
      const problems: string[] = [];
      for (const [width, viewport] of VIEWPORTS) {
        const { page, context, errors } = await newPage(browser, { locale, viewport });
        await page.goto(`${arena.baseUrl}/leaderboard`);
        const filter = page.getByTestId('filter-capability');
        await filter.waitFor();
        const option = filter.locator('option[value="math"]');
        await expect.poll(() => option.count()).toBe(1);
        const count = new Intl.NumberFormat(locale.slice(0, 2)).format(3);
        expect((await option.innerText()).trim()).toBe(
          messages['capability.votes'].replace('{label}', messages['capability.math']).replace('{n}', count),
        );
        await filter.selectOption('math');
        // The math board: A, B and C; D played only the greeting.
        await expect.poll(() => page.getByTestId('leaderboard-table').locator('tbody tr').count()).toBe(3);
        expect(await page.getByTestId('leaderboard-table').innerText()).not.toContain(D.name);
        problems.push(...(await axeViolations(page)).map((violation) => `axe: ${violation}`));
        problems.push(...(await leaksOn(page, locale.slice(0, 2) as 'fr')).map((leak) => `leak: ${leak}`));
        if (await hasHorizontalOverflow(page)) problems.push(`${width}: sideways scroll`);
        await screenshot(page, `capabilities-${locale}-${width}`);
        expect(errors).toEqual([]);
        await context.close();
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
