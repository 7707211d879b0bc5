import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/*
 * The console's content page in a real browser (issue 33, item 5): a Danish-speaking admin edits the
 * Danish privacy page (Markdown with its preview) and a prompt suggestion; a visitor's public
 * privacy page and arena show them. Photographed at desktop and phone width, checked with axe.
 */

const PASSWORD = 'a long enough console password';
const PRIVACY = '# Privatliv hos Testbyen\n\nVi gemmer **kun** det, du selv skriver, og sletter det efter et år.\n';
const SUGGESTION = 'Forklar nordlys for et barn på fem år.';

/** Opens a one-time link of a new admin in a browser of `locale` and chooses the password. */
async function signedInAdmin(browser: Browser, arena: TestArena, email: string, locale: string) {
  const invited = await arena.arena.console.staff.invite(email, 'admin');
  const opened = await newPage(browser, { locale });
  await opened.page.goto(`${arena.baseUrl}${new URL(invited.link).pathname}${new URL(invited.link).hash}`);
  await opened.page.locator('#new-password').fill(PASSWORD);
  await opened.page.locator('#repeat-password').fill(PASSWORD);
  await opened.page.locator('.welcome button[type="submit"]').click();
  await opened.page.getByTestId('console-who').waitFor();
  return opened;
}

async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
}

describe('the console’s content page', () => {
  let harness: TestArena;
  let browser: Browser;

  beforeAll(async () => {
    harness = await startArena();
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('lets an admin edit the Danish privacy page and a suggestion, which visitors then read', async () => {
    const { page, errors } = await signedInAdmin(browser, harness, 'indhold@example.org', 'da-DK');

    await page.goto(`${harness.baseUrl}/admin/content`);
    await settled(page);
    expect(await page.getByTestId('content-locale').inputValue()).toBe('da');
    await expect.poll(() => page.getByTestId('page-source').textContent()).toContain('Indbygget tekst');
    await screenshot(page, 'console-content-da-desktop');

    // The privacy page: the preview renders the Markdown as the public page will, sanitised.
    const markdown = page.getByLabel('Teksten på siden »Privatlivspolitik« (Markdown)');
    await markdown.fill(`${PRIVACY}\n<script>window.__owned = 1</script>\n`);
    await expect.poll(() => page.getByTestId('page-preview').locator('h1').textContent()).toBe('Privatliv hos Testbyen');
    expect(await page.getByTestId('page-preview').locator('strong').textContent()).toBe('kun');
    expect(await page.getByTestId('page-preview').locator('script').count()).toBe(0);
    await markdown.fill(PRIVACY);
    const pages = page.locator('section[aria-labelledby="content-pages"]');
    await pages.getByRole('button', { name: 'Gem', exact: true }).click();
    await expect.poll(() => pages.getByRole('status').textContent()).toContain('Gemt');
    await expect.poll(() => page.getByTestId('page-source').textContent()).toContain('indhold@example.org');

    // The first suggestion (a "learn" one) gets a Danish text of the admin's.
    const suggestions = page.locator('section[aria-labelledby="content-suggestions"]');
    expect(await page.getByTestId('suggestion-category-0').inputValue()).toBe('learn');
    await page.getByLabel('Forslag 1', { exact: true }).fill(SUGGESTION);
    await suggestions.getByRole('button', { name: 'Gem', exact: true }).click();
    await expect.poll(() => suggestions.getByRole('status').textContent()).toContain('Gemt');
    await expect.poll(() => page.getByTestId('suggestions-state').textContent()).toContain('gemt i konsollen');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-content-da-saved-desktop');

    await page.setViewportSize(PHONE);
    await settled(page);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, 'console-content-da-phone');
    for (const part of ['content-tags', 'content-suggestions', 'content-pages']) {
      await page.locator(`#${part}`).scrollIntoViewIfNeeded();
      await screenshot(page, `console-content-da-phone-${part}`, false);
    }
    expect(errors).toEqual([]);

    // A visitor in Danish: the public privacy page and the arena's suggestions are the admin's.
    const visitor = await newPage(browser, { locale: 'da-DK' });
    await visitor.page.goto(`${harness.baseUrl}/privacy`);
    const article = visitor.page.getByTestId('site-page');
    await expect.poll(() => article.locator('h1').textContent()).toBe('Privatliv hos Testbyen');
    expect(await article.textContent()).toContain('sletter det efter et år');
    await screenshot(visitor.page, 'console-content-public-privacy-da-desktop');
    await visitor.page.goto(`${harness.baseUrl}/`);
    await acceptTerms(visitor.page);
    await expect.poll(() => visitor.page.getByTestId('suggestion-learn').textContent(), { timeout: 10_000 }).toBe(SUGGESTION);
    await visitor.page.getByTestId('suggestion-learn').click();
    expect(await visitor.page.getByTestId('prompt').inputValue()).toBe(SUGGESTION);
    await screenshot(visitor.page, 'console-content-public-arena-da-desktop');
    await visitor.page.setViewportSize(PHONE);
    await screenshot(visitor.page, 'console-content-public-arena-da-phone');
    // The stored list is Danish only: a French visitor keeps the built-in suggestions.
    const french = await newPage(browser, { locale: 'fr-FR', viewport: DESKTOP });
    await french.page.goto(`${harness.baseUrl}/`);
    await acceptTerms(french.page);
    await expect
      .poll(() => french.page.getByTestId('suggestion-learn').textContent())
      .toBe('Explique la photosynthèse à un enfant de dix ans.');
    expect(visitor.errors).toEqual([]);
  }, 120_000);

  it('shows the pages read-only, with a notice, when AGORA_PAGES_DIR is set', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agora-e2e-pages-'));
    writeFileSync(join(folder, 'privacy.en.md'), '# Privacy at Testtown\n\nWritten in the operator’s folder.\n');
    const withFolder = await startArena({ AGORA_PAGES_DIR: folder });
    try {
      const { page, errors } = await signedInAdmin(browser, withFolder, 'folder@example.org', 'en-GB');
      await page.goto(`${withFolder.baseUrl}/admin/content`);
      await settled(page);
      await page.getByTestId('pages-read-only').waitFor();
      expect(await page.getByTestId('page-source').textContent()).toContain('AGORA_PAGES_DIR');
      expect(await page.getByLabel('Text of the page “Privacy” (Markdown)').getAttribute('readonly')).not.toBeNull();
      expect(await page.getByTestId('page-preview').locator('h1').textContent()).toBe('Privacy at Testtown');
      expect(
        await page.locator('section[aria-labelledby="content-pages"]').getByRole('button', { name: 'Save', exact: true }).count(),
      ).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      await page.locator('#content-pages').scrollIntoViewIfNeeded();
      await screenshot(page, 'console-content-read-only-en-desktop', false);
      await page.setViewportSize(PHONE);
      expect(await hasHorizontalOverflow(page)).toBe(false);
      await page.locator('#content-pages').scrollIntoViewIfNeeded();
      await screenshot(page, 'console-content-read-only-en-phone', false);
      expect(errors).toEqual([]);
    } finally {
      await withFolder.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
