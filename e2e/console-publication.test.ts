import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../packages/server/src/db/dialect';
import { createStore } from '../packages/server/src/db/unit-of-work';
import { type Seed, seed } from '../packages/server/test/export-seeds';
import { FakeHub } from '../packages/server/test/fake-hub/fake-hub';
import type { TestArena } from '../packages/server/test/test-arena';
import { DESKTOP, PHONE, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';

const PASSWORD = 'a long publisher password';
const EMAIL = 'publisher@example.org';
const HUB_TOKEN = 'hf_BrowserPublicationToken0123456789';
const PUBLIC_REPO = 'agora-e2e/arena-public';
const GATED_REPO = 'agora-e2e/arena-gated';

const SEEDS: Seed[] = Array.from({ length: 6 }, (_, index) => ({
  name: `Publication duel ${index}`,
  at: `2026-11-0${1 + (index % 3)}T09:00:00.000Z`,
  languages: [index < 4 ? 'fr' : 'en'],
  categories: ['Education'],
  vote: { choice: index % 2 === 0 ? ('a' as const) : ('tie' as const) },
}));

async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/publication`);
  await page.locator('#staff-email').fill(EMAIL);
  await page.locator('#staff-password').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.getByTestId('console-who').waitFor();
}

/** Clicks `start`, waits until the run it started (not the one shown before) has ended, and answers its status. */
async function runOf(page: Page, start: () => Promise<void>): Promise<string | null> {
  const shown = page.getByTestId('publication-run');
  const before = (await shown.count()) > 0 ? await shown.getAttribute('data-run') : null;
  await start();
  await page.waitForSelector(`[data-testid="publication-run"]:not([data-run="${before ?? ''}"]):not([data-status="running"])`, {
    timeout: 30_000,
  });
  return shown.getAttribute('data-status');
}

describe('the console’s publication page in a real browser', () => {
  let arena: TestArena;
  let hub: FakeHub;
  let browser: Browser;
  let out: string;

  beforeAll(async () => {
    hub = await new FakeHub().start();
    hub.tokens.add(HUB_TOKEN);
    hub.repositories.add(PUBLIC_REPO);
    hub.repositories.add(GATED_REPO);
    out = mkdtempSync(join(tmpdir(), 'agora-e2e-publication-'));
    [arena, browser] = await Promise.all([startArena({ AGORA_HUB_URL: hub.baseUrl, AGORA_PUBLICATION_DIR: out }), launchBrowser()]);
    const store = createStore(openDatabase(arena.store.location));
    try {
      await seed(store, arena.store.location, SEEDS);
    } finally {
      await store.close();
    }
    const invited = await arena.arena.console.staff.invite(EMAIL, 'admin');
    const response = await fetch(`${arena.baseUrl}/api/v1/staff/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(invited.link).hash.replace('#token=', ''), password: PASSWORD }),
    });
    expect(response.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
    await hub?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  it('an admin runs an export, sets the Hub, publishes: the fake Hub has the files and the cards, the audit log both actions', async () => {
    const { context, page, errors } = await newPage(browser, { locale: 'en-GB' });
    await signIn(page, arena.baseUrl);
    await page.getByRole('heading', { name: 'Dataset publication' }).waitFor();
    await screenshot(page, 'console-publication-empty-desktop');

    expect(await runOf(page, () => page.getByRole('button', { name: 'Run the export' }).click())).toBe('done');
    const builds = page.getByTestId('publication-builds');
    await builds.waitFor();
    await expect.poll(() => builds.locator('tbody tr').count()).toBe(1);
    expect(await builds.locator('tbody tr td.number').first().textContent()).toBe(String(SEEDS.length));
    const cardLink = builds.getByRole('link', { name: 'Card of the public dataset' });
    const card = await context.request.get(new URL((await cardLink.getAttribute('href'))!, arena.baseUrl).href);
    expect(card.status()).toBe(200);
    expect(await card.text()).toMatch(/^---\n/);

    // Publishing before the Hub is set says what is missing.
    await builds.getByRole('button', { name: /Publish to the Hub/ }).click();
    await page.getByText('First give an access token').waitFor();

    await page.getByLabel('Public dataset repository').fill(PUBLIC_REPO);
    await page.getByLabel('Gated dataset repository (optional)').fill(GATED_REPO);
    await page.getByLabel('New access token (write)').fill(HUB_TOKEN);
    await page.getByRole('button', { name: 'Save the settings' }).click();
    await page.getByTestId('hub-token-state').getByText('A token given in the console is stored.').waitFor();
    expect(await page.getByLabel('New access token (write)').inputValue()).toBe('');

    expect(await runOf(page, () => builds.getByRole('button', { name: /Publish to the Hub/ }).click())).toBe('done');
    await page.getByTestId('publication-pushes').waitFor();
    await expect.poll(() => page.getByTestId('publication-pushes').locator('li').count()).toBe(2);
    await builds.getByText(/^Published on/).waitFor();

    const pushed = hub.filesOf(PUBLIC_REPO);
    expect(pushed.get('README.md')?.toString('utf8')).toBe(await card.text());
    expect([...pushed.keys()].filter((path) => path.endsWith('.parquet')).length).toBeGreaterThan(0);
    expect([...pushed.keys()].filter((path) => path.endsWith('.jsonl')).length).toBeGreaterThan(0);
    expect(hub.filesOf(GATED_REPO).has('README.md')).toBe(true);
    expect(await page.content()).not.toContain(HUB_TOKEN);

    const audit = await arena.arena.console.audit.page({ limit: 100, writes: 'true' });
    const actions = audit.entries.map((entry) => `${entry.actor} ${entry.method} ${entry.route} ${entry.status}`);
    expect(actions).toContain(`${EMAIL} POST /api/v1/admin/publication/exports 202`);
    expect(actions).toContain(`${EMAIL} POST /api/v1/admin/publication/builds/:id/push 202`);
    expect(JSON.stringify(audit)).not.toContain(HUB_TOKEN);

    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'console-publication-published-desktop');
    await page.setViewportSize(PHONE);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, 'console-publication-published-phone');
    await page.setViewportSize(DESKTOP);

    // A refused token is named on the page.
    hub.tokens.delete(HUB_TOKEN);
    expect(await runOf(page, () => builds.getByRole('button', { name: /Publish to the Hub/ }).click())).toBe('failed');
    await page.getByText('The Hub refused the access token').waitFor();
    await screenshot(page, 'console-publication-refused-desktop');
    await page.setViewportSize(PHONE);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, 'console-publication-refused-phone');
    expect(errors).toEqual([]);
    await context.close();
  });
});
