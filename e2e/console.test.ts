import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_SECTIONS } from '../packages/web/src/lib/console/sections';
import { runAgora } from '../packages/server/test/run-agora';
import type { TestArena } from '../packages/server/test/test-arena';
import { DESKTOP, PHONE, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { leaksOn } from './language-leak';
import { LOCALES, catalogueOf, message } from './locales';

/*
 * The operator's console in a real browser (issue 33): an admin created with `agora staff add`
 * opens the one-time link, chooses a password and signs in; invites a reviewer from the staff page;
 * the reviewer sees neither the admin's sections nor their data (403); sign-in and sign-out through
 * the page; the audit log shows what they did. Then every console page, in each language, at
 * desktop and phone width: axe, no string of another language, no sideways scroll, a screenshot.
 */

const PASSWORD = 'a long enough console password';
const ADMIN_EMAIL = 'operator@example.org';
const REVIEWER_EMAIL = 'reviewer@example.org';
const CONSOLE_PAGES = ['/admin', ...CONSOLE_SECTIONS.map((section) => section.path)];

/** Waits until a console page has rendered its heading and finished loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 15_000 }).toBe(0);
}

/** Opens a one-time link and chooses the password: the console's overview follows. */
async function activate(page: Page, link: string, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}${new URL(link).pathname}${new URL(link).hash}`);
  await page.locator('#new-password').fill(PASSWORD);
  await page.locator('#repeat-password').fill(PASSWORD);
  await page.locator('.welcome button[type="submit"]').click();
  await page.waitForURL(`${baseUrl}/admin`);
  await page.getByTestId('console-who').waitFor();
  // The token left the address bar at once.
  expect(page.url()).not.toContain('token=');
}

describe('the operator’s console', () => {
  let harness: TestArena;
  let browser: Browser;
  let adminLink: string;

  beforeAll(async () => {
    // Ten sign-ins of one member from one address below: the limits themselves are tested in console-security.
    harness = await startArena({ AGORA_LIMIT_SIGN_INS_PER_15_MIN: '100' });
    browser = await launchBrowser();
    const databaseUrl = `sqlite:${(harness.store.location as { path: string }).path}`;
    const added = await runAgora(['staff', 'add', ADMIN_EMAIL, '--role', 'admin'], '', {
      DATABASE_URL: databaseUrl,
      AGORA_PUBLIC_URL: harness.baseUrl,
    });
    expect(added.code, added.stderr).toBe(0);
    adminLink = added.stdout.match(/https?:\/\/\S+#token=[\w-]+/)![0];
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('lets an admin in by the link `agora staff add` printed, and a reviewer they invite sees only a reviewer’s console', async () => {
    const { page: adminPage, errors, context } = await newPage(browser, { locale: 'en-GB' });
    await activate(adminPage, adminLink, harness.baseUrl);
    const adminNav = adminPage.getByRole('navigation', { name: 'Console navigation' });
    for (const section of CONSOLE_SECTIONS) await expect.poll(() => adminNav.locator(`a[href="${section.path}"]`).count()).toBe(1);

    await adminPage.goto(`${harness.baseUrl}/admin/staff`);
    await settled(adminPage);
    await adminPage.locator('#invite-email').fill(REVIEWER_EMAIL);
    await adminPage.locator('#invite-role').selectOption('reviewer');
    await adminPage.getByRole('button', { name: 'Create the sign-in link' }).click();
    const reviewerLink = await adminPage.locator('#invite-link-text').inputValue();
    expect(reviewerLink).toMatch(/\/admin\/welcome#token=[\w-]{40,}$/);
    await screenshot(adminPage, 'console-staff-invited-en-desktop');

    const reviewer = await newPage(browser, { locale: 'en-GB' });
    await activate(reviewer.page, reviewerLink, harness.baseUrl);
    const reviewerNav = reviewer.page.getByRole('navigation', { name: 'Console navigation' });
    for (const section of CONSOLE_SECTIONS)
      expect(await reviewerNav.locator(`a[href="${section.path}"]`).count(), section.path).toBe(section.role === 'reviewer' ? 1 : 0);
    await reviewer.page.goto(`${harness.baseUrl}/admin/models`);
    await reviewer.page.getByRole('heading', { name: 'Not allowed' }).waitFor();
    const answer = await reviewer.page.evaluate(async () => (await fetch('/api/v1/admin/models')).status);
    expect(answer).toBe(403);
    await screenshot(reviewer.page, 'console-reviewer-forbidden-en-desktop');

    // Signed out, then a wrong password, then the right one, through the form.
    await reviewer.page.getByRole('button', { name: 'Sign out' }).click();
    await reviewer.page.locator('#staff-email').fill(REVIEWER_EMAIL);
    await reviewer.page.locator('#staff-password').fill('not the right password');
    await reviewer.page.getByRole('button', { name: 'Sign in' }).click();
    await reviewer.page.getByText('Wrong e-mail address or password.').waitFor();
    await reviewer.page.locator('#staff-password').fill(PASSWORD);
    await reviewer.page.getByRole('button', { name: 'Sign in' }).click();
    await reviewer.page.getByTestId('console-who').waitFor();
    expect(reviewer.errors).toEqual([]);
    await reviewer.context.close();

    await adminPage.goto(`${harness.baseUrl}/admin/audit`);
    await settled(adminPage);
    const log = adminPage.locator('table');
    await expect.poll(() => log.innerText()).toContain('POST /api/v1/admin/staff');
    expect(await log.innerText()).toContain(REVIEWER_EMAIL);
    expect(await log.innerText()).toMatch(/GET \/api\/v1\/admin\/models\s+—?\s*—?\s*refused \(role\)/);
    await screenshot(adminPage, 'console-audit-en-desktop');
    expect(errors).toEqual([]);
    await context.close();
  }, 240_000);

  it('shows every console page in each language at desktop and phone width: axe clean, no other language, no sideways scroll', async () => {
    const found: string[] = [];
    for (const locale of LOCALES) {
      const language = locale.slice(0, 2) as 'fr' | 'en' | 'da' | 'sv' | 'lt';
      for (const [width, viewport] of [
        ['desktop', DESKTOP],
        ['phone', PHONE],
      ] as const) {
        const { page, context, errors } = await newPage(browser, { locale, viewport });
        // Signed out: the sign-in form, in this language.
        await page.goto(`${harness.baseUrl}/admin`);
        await page.locator('#staff-email').waitFor();
        expect(await page.locator('h1').innerText()).toBe(message(catalogueOf(locale), 'console.sign_in.title'));
        found.push(...(await axeViolations(page)).map((violation) => `sign-in ${locale} ${width}: ${violation}`));
        found.push(...(await leaksOn(page, language)).map((leak) => `sign-in ${locale} ${width}: ${leak}`));
        await screenshot(page, `console-sign-in-${language}-${width}`);
        await page.locator('#staff-email').fill(ADMIN_EMAIL);
        await page.locator('#staff-password').fill(PASSWORD);
        await page.locator('.sign-in button[type="submit"]').click();
        await page.getByTestId('console-who').waitFor();
        for (const path of CONSOLE_PAGES) {
          await page.goto(`${harness.baseUrl}${path}`);
          await settled(page);
          const name = `${path} ${locale} ${width}`;
          found.push(...(await axeViolations(page)).map((violation) => `${name}: ${violation}`));
          found.push(...(await leaksOn(page, language)).map((leak) => `${name}: ${leak}`));
          if (await hasHorizontalOverflow(page)) found.push(`${name}: scrolls sideways`);
          await screenshot(page, `console${path.replace('/admin', '').replaceAll('/', '-') || '-home'}-${language}-${width}`);
        }
        found.push(...errors.map((error) => `${locale} ${width}: ${error}`));
        await context.close();
      }
    }
    expect(found.join('\n')).toBe('');
  }, 900_000);
});
