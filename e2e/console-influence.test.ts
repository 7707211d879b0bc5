import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFLUENCE_VOTES, seedInfluenceVotes } from '../packages/server/test/influence-seed';
import type { TestArena } from '../packages/server/test/test-arena';
import { axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { leaksOn } from './language-leak';
import { LOCALES, VIEWPORTS, catalogueOf, message } from './locales';

const PASSWORD = 'a long reviewer password';

/** A reviewer whose one-time link was used through the API: the browser then signs in with the form. */
async function reviewer(arena: TestArena, email: string): Promise<void> {
  const invited = await arena.arena.console.staff.invite(email, 'reviewer');
  const response = await fetch(`${arena.baseUrl}/api/v1/staff/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(invited.link).hash.replace('#token=', ''), password: PASSWORD }),
  });
  expect(response.status).toBe(200);
}

async function signIn(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/influence`);
  await page.locator('#staff-email').fill(email);
  await page.locator('#staff-password').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.getByTestId('console-who').waitFor();
}

/** The push's groups by address, with the flagged votes counted: what a campaign the rules missed would do. */
async function showPushedModel(page: Page): Promise<void> {
  await page.getByTestId('influence-overview').waitFor();
  await page.getByTestId('influence-by').selectOption('address');
  await page.getByTestId('influence-flagged').check();
  await page.locator('[data-testid="influence-overview"] tr[data-model="m4"] td code').filter({ hasText: 'push-address' }).waitFor();
  await page.getByTestId('influence-model').selectOption('m4');
  await page.getByTestId('influence-groups').waitFor();
}

describe('the console’s rank influence page in a real browser', () => {
  let arena: TestArena;
  let empty: TestArena;
  let browser: Browser;
  let cookies: Awaited<ReturnType<BrowserContext['cookies']>> = [];

  beforeAll(async () => {
    [arena, empty, browser] = await Promise.all([startArena(), startArena(), launchBrowser()]);
    await seedInfluenceVotes(arena.arena.store);
    await arena.arena.leaderboards.refresh();
    await reviewer(arena, 'reviewer@example.org');
    await reviewer(empty, 'reviewer@example.org');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
    await empty?.close();
  });

  it('a reviewer signs in and finds the pushing address first for m4, with the alert and the planner’s sentence', async () => {
    const { context, page, errors } = await newPage(browser, { locale: 'en-GB' });
    await signIn(page, arena.baseUrl, 'reviewer@example.org');
    cookies = await context.cookies();
    await showPushedModel(page);
    const first = page.locator('[data-testid="influence-groups"] tbody tr').first();
    expect(await first.getAttribute('data-group')).toBe('push-address');
    const cells = await first.locator('td').allTextContents();
    // Leaving the push out lowers m4 (a negative change), its 40 votes all on m4, and the alert.
    expect(cells[0]).toMatch(/^-\d+(\.\d)?$/);
    expect(cells.slice(1, 3)).toEqual(['40', '40']);
    expect(cells[4]).toBe('Alert');
    expect(await page.locator('#influence-detail-title [data-testid="influence-alert"]').count()).toBe(1);
    const plans = page.getByTestId('influence-plans').or(page.getByTestId('influence-plans-none'));
    await plans.waitFor();
    expect(await page.getByTestId('influence-summary').textContent()).toContain(`${INFLUENCE_VOTES.length} votes`);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(LOCALES.flatMap((locale) => VIEWPORTS.map(([width, viewport]) => ({ locale, width, viewport }))))(
    'speaks $locale at $width width, with the push row and the alert, axe clean and without sideways scrolling',
    async ({ locale, width, viewport }) => {
      const { context, page, errors } = await newPage(browser, { locale, viewport });
      await context.addCookies(cookies);
      await page.goto(`${arena.baseUrl}/admin/influence`);
      await showPushedModel(page);
      const messages = catalogueOf(locale);
      expect(await page.locator('h1').textContent()).toBe(message(messages, 'console.influence.title'));
      expect(await page.locator('[data-testid="influence-groups"] tbody tr').first().getAttribute('data-group')).toBe('push-address');
      expect(await page.locator('[data-testid="influence-groups"] tbody tr').first().getByTestId('influence-alert').textContent()).toBe(
        message(messages, 'console.influence.alert'),
      );
      expect(await leaksOn(page, locale.slice(0, 2) as 'fr' | 'en' | 'da' | 'sv' | 'lt')).toEqual([]);
      expect(await hasHorizontalOverflow(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-influence-${locale}-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('says so when the board has too few votes', async () => {
    for (const [width, viewport] of VIEWPORTS) {
      const { context, page, errors } = await newPage(browser, { locale: 'fr-FR', viewport });
      await signIn(page, empty.baseUrl, 'reviewer@example.org');
      await page.getByTestId('influence-empty').waitFor();
      expect(await page.getByTestId('influence-empty').textContent()).toBe(message(catalogueOf('fr-FR'), 'console.influence.empty'));
      expect(await leaksOn(page, 'fr')).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-influence-empty-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
