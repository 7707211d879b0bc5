import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestArena } from '../packages/server/test/test-arena';
import { launchBrowser, newPage, screenshot, startArena } from './harness';

/**
 * A visitor past the read limit (docs/operations.md#rate-limits) is told to wait, in their
 * language and for as long as the server says, on the pages that read: the leaderboard and the
 * operator's pages. Every request here comes from 127.0.0.1, one address.
 */
describe('a visitor past the read limit', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena({ AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS: '6' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it('is told to wait on the leaderboard and on a page, in French then in English', async () => {
    const french = await newPage(browser, { locale: 'fr-FR' });
    await french.page.goto(`${arena.baseUrl}/leaderboard`);
    const problem = french.page.getByTestId('leaderboard-problem');
    // Each change of the filters is a read: the limit answers within a few.
    for (let tries = 0; tries < 8 && !(await problem.isVisible()); tries++) {
      await french.page.getByTestId(tries % 2 === 0 ? 'style-controlled' : 'style-plain').check();
      await french.page.waitForTimeout(200);
    }
    expect(await problem.innerText()).toMatch(/^Trop de demandes depuis votre connexion en peu de temps\. Réessayez dans \d+ s\.$/);
    await screenshot(french.page, 'leaderboard-rate-limited-fr');
    expect(french.errors).toEqual([]);
    await french.context.close();

    const english = await newPage(browser, { locale: 'en-GB' });
    await english.page.goto(`${arena.baseUrl}/methodology`);
    expect(await english.page.getByTestId('page-problem').innerText()).toMatch(
      /^Too many requests from your connection in a short time\. Try again in \d+ s\.$/,
    );
    expect(english.errors).toEqual([]);
    await english.context.close();
  });
});
