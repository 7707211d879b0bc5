import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../packages/server/src/db/dialect';
import { createStore } from '../packages/server/src/db/unit-of-work';
import { type Seed, seed } from '../packages/server/test/export-seeds';
import type { TestArena } from '../packages/server/test/test-arena';
import { axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { LOCALES, VIEWPORTS, catalogueOf, message } from './locales';

const PASSWORD = 'a long reviewer password';

/** Midnight UTC `daysAgo` days before today, plus `hour` hours: the period ends today. */
function dayOf(daysAgo: number, hour: number): string {
  const today = new Date();
  return new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - daysAgo, hour)).toISOString();
}

/** Five duels over three days: two votes and a tie, one report, one reaction, one failed first turn (Kestrix on side b). */
const SEEDS: Seed[] = [
  {
    name: 'Activity one',
    at: dayOf(2, 0),
    vote: { choice: 'a' },
    reactions: [{ turn: 1, side: 'a', value: 'like' }],
    categories: ['Education'],
  },
  { name: 'Activity two', at: dayOf(2, 0), report: true, languages: ['en'], categories: ['Sports'] },
  { name: 'Activity three', at: dayOf(1, 0), failFrom: 1, models: ['zephyrine-405b', 'kestrix-8b'], annotation: 'none' },
  { name: 'Activity four', at: dayOf(1, 0), vote: { choice: 'tie' }, categories: ['Education'] },
  { name: 'Activity five', at: dayOf(0, 0), vote: { choice: 'b' }, models: ['kestrix-8b', 'sollary-32b'], languages: ['lt'] },
];

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
  await page.goto(`${baseUrl}/admin/activity`);
  await page.locator('#staff-email').fill(email);
  await page.locator('#staff-password').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.getByTestId('console-who').waitFor();
}

describe('the console’s activity page in a real browser', () => {
  let arena: TestArena;
  let empty: TestArena;
  let browser: Browser;
  /** The reviewer's session cookie, signed in once through the page, given to the other browser contexts. */
  let cookies: Awaited<ReturnType<BrowserContext['cookies']>> = [];

  beforeAll(async () => {
    [arena, empty, browser] = await Promise.all([startArena(), startArena(), launchBrowser()]);
    const store = createStore(openDatabase(arena.store.location));
    try {
      await seed(store, arena.store.location, SEEDS);
    } finally {
      await store.close();
    }
    await reviewer(arena, 'reviewer@example.org');
    await reviewer(empty, 'reviewer@example.org');
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
    await empty?.close();
  });

  it('a reviewer signs in and reads the store’s figures: days, funnel, failures, languages', async () => {
    const { context, page, errors } = await newPage(browser, { locale: 'en-GB' });
    await signIn(page, arena.baseUrl, 'reviewer@example.org');
    cookies = await context.cookies();
    const totals = page.getByTestId('activity-totals');
    await totals.waitFor();
    expect(await totals.locator('[data-total]').allTextContents()).toEqual(['5', '3', '1', '1']);
    const today = dayOf(0, 0).slice(0, 10);
    const todayRow = page.locator(`[data-testid="activity-days"] tr[data-day="${today}"] td`);
    expect(await todayRow.allTextContents()).toEqual(['1', '1', '0', '0']);
    expect(await page.locator('[data-testid="activity-days"] tbody tr').count()).toBe(30);
    expect(await page.locator('[data-testid="activity-funnel"] [data-count]').allTextContents()).toEqual(['5', '4', '3']);
    const kestrix = page.locator('[data-testid="activity-models"] tr[data-model="kestrix-8b"]');
    expect(await kestrix.locator('th').textContent()).toBe('Kestrix Nano');
    expect(await kestrix.locator('[data-failed]').textContent()).toBe('1');
    expect(await kestrix.locator('[data-rate]').textContent()).toBe('50%');
    // Languages by name in the reader's language, topics as the public pages word them.
    const languages = await page.locator('[data-testid="activity-languages"] tbody th').allTextContents();
    expect(languages).toEqual(['French', 'English', 'Lithuanian']);
    expect(await page.locator('[data-testid="activity-topics"] tbody th').allTextContents()).toContain('Education');
    expect(await page.getByTestId('activity-imported').textContent()).toContain('compar:IA');

    // Another period is read again from the store: seven days hold the same five duels, in seven rows.
    await page.getByTestId('activity-period').selectOption('7');
    await page.locator('[data-testid="activity-days"] tbody tr').nth(6).waitFor();
    await expect.poll(() => page.locator('[data-testid="activity-days"] tbody tr').count()).toBe(7);
    expect(await totals.locator('[data-total]').allTextContents()).toEqual(['5', '3', '1', '1']);
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it.each(LOCALES.flatMap((locale) => VIEWPORTS.map(([width, viewport]) => ({ locale, width, viewport }))))(
    'speaks $locale at $width width, axe clean and without sideways scrolling',
    async ({ locale, width, viewport }) => {
      const { context, page, errors } = await newPage(browser, { locale, viewport });
      await context.addCookies(cookies);
      await page.goto(`${arena.baseUrl}/admin/activity`);
      await page.getByTestId('activity-totals').waitFor();
      const messages = catalogueOf(locale);
      expect(await page.locator('h1').textContent()).toBe(message(messages, 'console.activity.title'));
      expect(await page.locator('#activity-funnel-title').textContent()).toBe(message(messages, 'console.activity.funnel_title'));
      expect(await hasHorizontalOverflow(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-activity-${locale}-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    },
  );

  it('says so when nothing was played in the period', async () => {
    for (const [width, viewport] of VIEWPORTS) {
      const { context, page, errors } = await newPage(browser, { locale: 'fr-FR', viewport });
      await signIn(page, empty.baseUrl, 'reviewer@example.org');
      await page.getByTestId('activity-empty').waitFor();
      expect(await page.getByTestId('activity-empty').textContent()).toBe(message(catalogueOf('fr-FR'), 'console.activity.empty'));
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `console-activity-empty-${width}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
