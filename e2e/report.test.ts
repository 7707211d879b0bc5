import type { ReviewQueueBody } from '@agora/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Messages } from '../packages/web/src/lib/i18n/fr';
import type { TestArena } from '../packages/server/test/test-arena';
import { acceptTerms, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { CATALOGUES, LOCALES, VIEWPORTS, message } from './locales';

const TOKEN = 'report-e2e-admin-token-0123456789';

/** The visible text of the report form: every string of it from the visitor's catalogue, none from another. */
async function expectFormIn(page: Page, key: string, messages: Messages): Promise<void> {
  const form = page.getByTestId(`report-form-${key}`);
  const text = await form.innerText();
  for (const part of [
    'report.intro',
    'report.category',
    'report.category.personal_data',
    'report.category.harmful',
    'report.category.misleading',
    'report.category.other',
    'report.send',
    'report.cancel',
  ] as const)
    expect(text).toContain(messages[part]);
  // A language leak: the form says nothing that another catalogue says and this one does not.
  for (const other of Object.values(CATALOGUES).filter((catalogue) => catalogue !== messages))
    for (const leak of [other['report.intro'], other['report.send'], other['report.category']])
      if (!Object.values(messages).includes(leak)) expect(text).not.toContain(leak);
}

/**
 * "Report" in a real browser, in each language at phone and desktop width: an answer before the
 * vote, the conversation after it (its "other" needing words, and a 429 said in the visitor's
 * language); each report reaches the review queue with its category and target.
 */
describe('reporting a duel and an answer in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena({ AGORA_ADMIN_TOKEN: TOKEN }), launchBrowser()]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Une réponse courte.\n\nFin.' };
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  async function reportAnswer(page: Page, messages: Messages, shot: string): Promise<void> {
    await page.getByTestId('report-open-1-b').click();
    const form = page.getByTestId('report-form-1-b');
    await form.waitFor();
    expect(await page.getByTestId('report-open-1-b').getAttribute('aria-expanded')).toBe('true');
    await expectFormIn(page, '1-b', messages);
    // Keyboard: the first choice has the focus; arrows move among the choices, Tab reaches the text and the button.
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe('personal_data');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await form.getByTestId('report-category-misleading').isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.type('Les chiffres sont faux.');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `${shot}-answer-form`);
    await form.getByTestId('report-send').click();
    const sent = page.getByTestId('report-sent-1-b');
    await sent.waitFor();
    expect((await sent.innerText()).trim()).toBe(message(messages, 'report.sent_answer', { side: 'B' }));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('report-sent-1-b');
  }

  async function reportDuel(page: Page, messages: Messages, shot: string): Promise<void> {
    await page.getByTestId('report-open-duel').click();
    const form = page.getByTestId('report-form-duel');
    await form.getByTestId('report-category-other').check();
    // Only spaces and zero-width characters: no words, as the server judges it (hasVisibleCharacter).
    await form.getByTestId('report-details').fill(' \u200B\u2060 ');
    await form.getByTestId('report-send').click();
    // "Other" needs a few words: said in the visitor's language, nothing sent.
    expect((await form.getByTestId('report-problem').innerText()).trim()).toBe(messages['report.details_missing']);
    expect(await form.getByTestId('report-details').getAttribute('aria-invalid')).toBe('true');
    await form.getByTestId('report-details').fill('Cette conversation contient mon adresse.');
    // The server's rate limit, in the visitor's language with its wait.
    await page.route('**/api/v1/duels/*/report', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'content-type': 'application/json', 'retry-after': '42' },
        body: JSON.stringify({ error: { code: 'rate_limited', message: 'too many requests' } }),
      }),
    );
    await form.getByTestId('report-send').click();
    await expect
      .poll(async () => (await form.getByTestId('report-problem').innerText()).trim())
      .toBe(message(messages, 'common.rate_limited', { seconds: 42 }));
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `${shot}-duel-rate-limited`);
    await page.unroute('**/api/v1/duels/*/report');
    await form.getByTestId('report-send').click();
    const sent = page.getByTestId('report-sent-duel');
    await sent.waitFor();
    expect((await sent.innerText()).trim()).toBe(messages['report.sent_duel']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `${shot}-sent`);
  }

  it('reports an answer before the vote and the conversation after it, in each language and width; both reach the review queue', async () => {
    const reported: string[] = [];
    for (const locale of LOCALES) {
      const messages = CATALOGUES[locale.slice(0, 2)]!;
      for (const [width, viewport] of VIEWPORTS) {
        const scheme = width === 'phone' ? 'dark' : 'light';
        const shot = `report-${locale.slice(0, 2)}-${width}-${scheme}`;
        const { page, context, errors } = await newPage(browser, { locale, viewport, colorScheme: scheme });
        await page.goto(arena.baseUrl);
        await acceptTerms(page);
        await page.getByTestId('prompt').fill(`Une question à signaler (${locale}, ${width})`);
        await page.getByTestId('prompt').press('Enter');
        await page.getByTestId('vote-panel').waitFor();
        const duelId = (await page.getByTestId('duel').getAttribute('data-duel-id'))!;
        await reportAnswer(page, messages, shot);
        await page.locator('[data-choice="a"]').click();
        await page.getByTestId('vote-submit').click();
        await page.getByTestId('reveal').waitFor();
        // After the vote: the other answer can still be reported, and the conversation.
        expect(await page.getByTestId('report-open-1-a').count()).toBe(1);
        await reportDuel(page, messages, shot);
        expect(await hasHorizontalOverflow(page)).toBe(false);
        expect(errors).toEqual([]);
        reported.push(duelId);
        await context.close();
      }
    }
    const queue = await arena.client.request('GET', '/api/v1/admin/review?queue=reported&limit=500', undefined, {
      authorization: `Bearer ${TOKEN}`,
    });
    expect(queue.status).toBe(200);
    const items = (queue.json as ReviewQueueBody).items;
    for (const duelId of reported) {
      const item = items.find((candidate) => candidate.duel_id === duelId);
      expect(item?.reports, duelId).toMatchObject([
        { category: 'misleading', reason: 'Les chiffres sont faux.', turn: 1, side: 'b' },
        { category: 'other', reason: 'Cette conversation contient mon adresse.', turn: null, side: null },
      ]);
    }
    expect(reported).toHaveLength(10);
  }, 180_000);
});
