import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestArena } from '../packages/server/test/test-arena';
import {
  DESKTOP,
  PHONE,
  acceptTerms,
  axeViolations,
  hasHorizontalOverflow,
  launchBrowser,
  newPage,
  screenshot,
  startArena,
} from './harness';
import { LOCALES, catalogueOf } from './locales';

const LOCALE_CATALOGUES = LOCALES.map((locale) => [locale, catalogueOf(locale)] as const);

/** The box of an element, which must be on screen. */
async function box(page: Page, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await page.locator(selector).first().boundingBox();
  expect(found, selector).not.toBeNull();
  return found!;
}

/** Header cells whose text is wider than the cell shows (the "Ra" of a cut "Rang"). */
function clippedHeaders(page: Page): Promise<string[]> {
  return page.$$eval('[data-testid="leaderboard-table"] thead th', (cells) =>
    cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent?.trim() ?? ''),
  );
}

/**
 * The arena at phone width, as issue 32 found it and as a visitor needs it: the composer as wide as
 * the screen with its button under it, comment fields with visible labels, a navigation that folds into
 * a menu (every link reachable, none clipped), leaderboard headers shown whole; in each language.
 */
describe('phone layout', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena(), launchBrowser()]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Une réponse courte.\n\nFin.' };
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it.each(LOCALE_CATALOGUES)(
    '%s at 390 px: full-width composer, labelled comments, a menu, whole headers',
    async (locale, messages) => {
      const short = locale.slice(0, 2);
      const { context, page, errors } = await newPage(browser, { locale, viewport: PHONE });
      await page.goto(arena.baseUrl);
      await acceptTerms(page);

      const main = await box(page, 'main');
      const prompt = await box(page, '[data-testid="prompt"]');
      const send = await box(page, 'form.prompt button[type="submit"]');
      expect(prompt.width).toBeGreaterThan(main.width * 0.85);
      expect(send.y).toBeGreaterThanOrEqual(prompt.y + prompt.height - 1);

      // The menu: closed, the links are out of the way; open, each is on screen and whole.
      const toggle = page.getByTestId('menu-toggle');
      expect(await toggle.innerText()).toBe(messages['polish.menu']);
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await page.locator('#site-nav').isVisible()).toBe(false);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      const links = page.locator('#site-nav a');
      for (let index = 0; index < (await links.count()); index += 1) {
        const link = await links.nth(index).boundingBox();
        expect(link).not.toBeNull();
        expect(link!.x).toBeGreaterThanOrEqual(0);
        expect(link!.x + link!.width).toBeLessThanOrEqual(PHONE.width);
      }
      await screenshot(page, `phone-menu-open-${short}`, false);
      await toggle.click();

      await page.getByTestId('prompt').fill(`Une question sur un téléphone (${short})`);
      await page.getByTestId('prompt').press('Enter');
      await page.getByTestId('vote-panel').waitFor();
      // A reaction opens its comment field: its label is on screen, not only a placeholder.
      await page.locator('.reactions button').first().click();
      const label = page.locator('.comment-label').first();
      await label.waitFor();
      expect(await label.innerText()).toBe(messages['reaction.comment'].replace('{side}', 'A'));
      const labelBox = await label.boundingBox();
      expect(labelBox!.width).toBeGreaterThan(20);
      expect(await page.locator('.comment input').first().getAttribute('placeholder')).toBeNull();
      expect(await hasHorizontalOverflow(page)).toBe(false);
      await screenshot(page, `phone-duel-comment-${short}`);
      await page.locator('[data-choice="a"]').click();
      await page.getByTestId('vote-submit').click();
      await page.getByTestId('reveal').waitFor();

      // Navigating by the menu closes it.
      await toggle.click();
      await page.locator('#site-nav a[href$="/leaderboard"]').click();
      await page.getByTestId('leaderboard-table').or(page.getByTestId('leaderboard-empty')).first().waitFor();
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      // The first vote reaches the board with its next refresh: until then the page says the board is empty.
      while ((await page.getByTestId('leaderboard-table').count()) === 0) {
        await page.waitForTimeout(250);
        await page.reload();
        await page.getByTestId('leaderboard-table').or(page.getByTestId('leaderboard-empty')).first().waitFor();
      }
      expect(await clippedHeaders(page)).toEqual([]);
      await screenshot(page, `phone-leaderboard-${short}`);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
    90_000,
  );

  it('at 1280 px the links stay in the bar and no menu button shows', async () => {
    const { context, page } = await newPage(browser, { locale: 'en-GB', viewport: DESKTOP });
    await page.goto(`${arena.baseUrl}/leaderboard`);
    // The app renders once its catalogue has arrived: wait for the bar before judging what it shows.
    await page.locator('#site-nav a').first().waitFor();
    expect(await page.getByTestId('menu-toggle').isVisible()).toBe(false);
    expect(await page.locator('#site-nav a').first().isVisible()).toBe(true);
    await context.close();
  });
});
