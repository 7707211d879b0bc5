import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { myDuelsExportSchema } from '@agora/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Messages } from '../packages/web/src/lib/i18n/fr';
import { filesUnder } from '../packages/server/test/export-files';
import { runAgora } from '../packages/server/test/run-agora';
import { type TestArena, testCatalogueYaml, until } from '../packages/server/test/test-arena';
import { acceptTerms, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { CATALOGUES, LOCALES, VIEWPORTS, message } from './locales';

const activeText = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.innerText.trim() ?? '');

/**
 * "My duels" in a real browser, in each language at phone and desktop width: play a duel and vote,
 * find it listed with its vote and models, download it (the file holds it), erase it after a
 * confirmation (a refused erasure said in the visitor's language first), see the empty state; then
 * an export of the store holds none of the erased duels' text (the store tests cover PostgreSQL:
 * packages/server/test/my-duels.test.ts).
 */
describe('my duels in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena({ AGORA_POSTPROCESS_EVERY_S: '0.05' }), launchBrowser()]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Une réponse courte et claire pour tout le monde.' };
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  async function playAndVote(page: Page, prompt: string): Promise<void> {
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await page.getByTestId('prompt').fill(prompt);
    await page.getByTestId('prompt').press('Enter');
    await page.getByTestId('vote-panel').waitFor();
    await page.locator('[data-choice="a"]').click();
    await page.getByTestId('vote-submit').click();
    await page.getByTestId('reveal').waitFor();
  }

  /** From the footer at desktop width; at phone width from the privacy page's text, which links the page too. */
  async function seeListAndDownload(page: Page, messages: Messages, prompt: string, shot: string, width: string): Promise<void> {
    if (width === 'phone') {
      await page.goto(`${arena.baseUrl}/privacy`);
      await page.getByTestId('my-duels-link').getByRole('link', { name: messages['mine.privacy_page_link'], exact: true }).click();
    } else await page.locator('footer').getByRole('link', { name: messages['mine.nav'], exact: true }).click();
    const card = page.getByTestId('my-duel');
    await card.first().waitFor();
    expect(await card.count()).toBe(1);
    expect(await card.locator('h2').innerText()).toBe(prompt);
    expect((await card.getByTestId('my-duel-vote').innerText()).trim()).toBe(
      message(messages, 'mine.vote', { choice: messages['vote.a'] }),
    );
    expect(await card.getByTestId('my-duel-models').innerText()).not.toBe(messages['mine.models_hidden']);
    expect(await page.locator('h1').innerText()).toBe(messages['mine.title']);
    expect(await axeViolations(page)).toEqual([]);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, `${shot}-list`);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('my-duels-download').click()]);
    expect(download.suggestedFilename()).toMatch(/^agora-my-duels-\d{4}-\d{2}-\d{2}\.json$/);
    const file = myDuelsExportSchema.parse(JSON.parse(readFileSync(await download.path(), 'utf8')));
    expect(file.duels).toHaveLength(1);
    expect(file.duels[0]).toMatchObject({ status: 'voted', vote: { choice: 'a' }, turns: [{ prompt }] });
    expect(file.duels[0]!.turns[0]!.a.text).toContain('Une réponse courte');
    expect(file.duels[0]!.models?.a.name).toBeTruthy();
  }

  async function confirmAll(page: Page, messages: Messages, shot: string): Promise<void> {
    await page.getByTestId('erase-all').click();
    const dialog = page.getByTestId('erase-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('h2').innerText()).toBe(message(messages, 'mine.confirm_all_title', { count: 1 }));
    // Cancel has the focus: an erasure is never one Enter away.
    expect(await activeText(page)).toBe(messages['mine.confirm_no']);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `${shot}-confirm-all`, false);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await activeText(page)).toBe(messages['mine.erase_all']);
  }

  async function eraseOne(page: Page, messages: Messages, shot: string): Promise<void> {
    await page.getByTestId('erase-one').click();
    const dialog = page.getByTestId('erase-dialog');
    await dialog.waitFor();
    expect(await dialog.locator('h2').innerText()).toBe(messages['mine.confirm_one_title']);
    expect(await dialog.locator('p').innerText()).toBe(messages['mine.confirm_body']);
    expect(await axeViolations(page)).toEqual([]);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, `${shot}-confirm-one`, false);
    // A refusal (the erasure limit) is said in the visitor's language, with its wait, and erases nothing.
    await page.route('**/api/v1/duels/*', (route) =>
      route.request().method() === 'DELETE'
        ? route.fulfill({
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '42' },
            body: JSON.stringify({ error: { code: 'rate_limited', message: 'too many erasures' } }),
          })
        : route.fallback(),
    );
    await page.getByTestId('erase-confirm').click();
    const problem = page.getByTestId('my-duels-error');
    await problem.waitFor();
    expect((await problem.innerText()).trim()).toBe(message(messages, 'common.rate_limited', { seconds: 42 }));
    expect(await page.getByTestId('my-duel').count()).toBe(1);
    await screenshot(page, `${shot}-refused`);
    await page.unroute('**/api/v1/duels/*');

    await page.getByTestId('erase-one').click();
    await page.getByTestId('erase-confirm').click();
    await page.getByTestId('my-duels-empty').waitFor();
    expect((await page.getByTestId('my-duels-status').innerText()).trim()).toBe(messages['mine.erased_one']);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(await page.getByTestId('my-duels-empty').getByRole('link').innerText()).toBe(messages['mine.empty_link']);
    expect(await axeViolations(page)).toEqual([]);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, `${shot}-empty`);
  }

  it('lists, downloads and erases a voted duel in each language and width; no later export holds the erased text', async () => {
    const erased: string[] = [];
    for (const locale of LOCALES) {
      const lang = locale.slice(0, 2);
      const messages = CATALOGUES[lang]!;
      for (const [width, viewport] of VIEWPORTS) {
        const scheme = width === 'phone' ? 'dark' : 'light';
        const shot = `my-duels-${lang}-${width}-${scheme}`;
        const marker = `e2e-mine-${lang}-${width}`;
        const prompt = `Une question à effacer [${marker}] ensuite.`;
        const { page, context, errors } = await newPage(browser, { locale, viewport, colorScheme: scheme });
        await playAndVote(page, prompt);
        await seeListAndDownload(page, messages, prompt, shot, width);
        await confirmAll(page, messages, shot);
        await eraseOne(page, messages, shot);
        expect(errors).toEqual([]);
        erased.push(marker);
        await context.close();
      }
    }
    expect(erased).toHaveLength(10);

    // A duel of another visitor, kept: the export finds its text, so a missing one is really missing.
    const kept = await arena.client.request('POST', '/api/v1/duels', { prompt: 'Une question gardée [e2e-kept-77c1].' });
    await arena.client.stream(kept.json.id);
    expect((await arena.client.request('POST', `/api/v1/duels/${kept.json.id}/vote`, { choice: 'b' })).status).toBe(200);
    await until(
      () => arena.arena.store.annotations.find(kept.json.id as string),
      (found) => found?.status === 'done',
    );
    const folder = mkdtempSync(join(tmpdir(), 'agora-e2e-mine-'));
    try {
      writeFileSync(join(folder, 'models.yaml'), testCatalogueYaml(arena.fake.baseUrl));
      const location = arena.store.location;
      const outcome = await runAgora(['export', '--out', join(folder, 'out'), '--format', 'parquet,jsonl'], '', {
        DATABASE_URL: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url,
        AGORA_MODELS: join(folder, 'models.yaml'),
      });
      expect(outcome.code).toBe(0);
      const bytes = filesUnder(join(folder, 'out'))
        .map((path) => readFileSync(path).toString('latin1') + readFileSync(path, 'utf8'))
        .join('\n');
      expect(bytes).toContain('e2e-kept-77c1');
      for (const marker of erased) expect({ marker, present: bytes.includes(marker) }).toEqual({ marker, present: false });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 300_000);
});
