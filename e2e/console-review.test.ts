import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditPage } from '@agora/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatasetExportService } from '../packages/server/src/services/dataset-export.service';
import { filesUnder } from '../packages/server/test/export-files';
import { type TestArena, until } from '../packages/server/test/test-arena';
import { DESKTOP, PHONE, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';

const TOKEN = 'e2e-console-review-token-0123';
const admin = { authorization: `Bearer ${TOKEN}` };
const REVIEWER = 'relectrice@example.org';
const PASSWORD = 'a long reviewer password';
const EMAIL = 'marc.lefevre@laposte.net';

const PROMPTS = {
  email: `Écris-moi à ${EMAIL} pour le devis de la cuisine.`,
  phone: 'Rappelle-moi au 06 12 34 56 78 demain pour le rendez-vous.',
  clean: 'Quels sont les bienfaits de la marche en forêt ?',
};

/** Every text the conversations subsets of an export hold, both tiers, as one string. */
async function exported(arena: TestArena): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'agora-e2e-review-'));
  try {
    await new DatasetExportService(arena.arena.store.datasets, new Map(), { privateCohorts: [] }).export({
      outDir: out,
      formats: ['jsonl'],
      datasets: ['conversations'],
    });
    return filesUnder(out)
      .filter((path) => path.endsWith('.jsonl'))
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function signIn(page: Page, baseUrl: string, path: string): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.locator('#staff-email').fill(REVIEWER);
  await page.locator('#staff-password').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.getByTestId('console-who').waitFor();
}

describe('the console’s review queue and vote integrity in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  const ids = {} as Record<keyof typeof PROMPTS, string>;

  beforeAll(async () => {
    [arena, browser] = await Promise.all([
      startArena({
        AGORA_ADMIN_TOKEN: TOKEN,
        AGORA_POSTPROCESS_EVERY_S: '0.1',
        AGORA_POSTPROCESS_IDLE_S: '0',
        // Votes cast at once are flagged too_fast: the integrity page has something to show.
        AGORA_INTEGRITY_MIN_VOTE_S: '30',
      }),
      launchBrowser(),
    ]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0 };
    for (const [key, prompt] of Object.entries(PROMPTS) as [keyof typeof PROMPTS, string][]) {
      const created = await arena.client.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
      await arena.client.stream(created.json.id);
      expect((await arena.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
      ids[key] = created.json.id as string;
    }
    for (const id of Object.values(ids))
      await until(
        () => arena.arena.store.annotations.find(id),
        (found) => found?.status === 'done',
      );
    const invited = await arena.arena.console.staff.invite(REVIEWER, 'reviewer');
    const activated = await fetch(`${arena.baseUrl}/api/v1/staff/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(invited.link).hash.replace('#token=', ''), password: PASSWORD }),
    });
    expect(activated.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it('a reviewer sees the flagged span, withholds a published conversation with a reason, and the next export lacks it', async () => {
    // A script published the e-mail conversation earlier: the export holds it.
    expect((await arena.client.request('PUT', `/api/v1/admin/review/${ids.email}`, { decision: 'include' }, admin)).status).toBe(200);
    expect(await exported(arena)).toContain(EMAIL);

    const { page, errors } = await newPage(browser, { locale: 'fr-FR' });
    await signIn(page, arena.baseUrl, '/admin/review');
    const table = page.getByTestId('review-table');
    await table.locator(`tr[data-duel="${ids.phone}"]`).waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(1);
    await expect.poll(() => table.locator(`tr[data-duel="${ids.phone}"]`).innerText()).toContain('numéro de téléphone');
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await hasHorizontalOverflow(page)).toBe(false);
      await screenshot(page, `console-review-queue-${viewport.width}`);
    }
    await page.setViewportSize(DESKTOP);

    // The flagged number is marked where the visitor typed it, named in words.
    await table.locator(`tr[data-duel="${ids.phone}"] button`).click();
    const detail = page.getByTestId('review-detail');
    await expect.poll(() => detail.locator('mark').first().innerText()).toContain('06 12 34 56 78');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('review-detail-title');
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await hasHorizontalOverflow(page)).toBe(false);
      await screenshot(page, `console-review-detail-${viewport.width}`);
    }
    await page.setViewportSize(DESKTOP);
    await detail.getByRole('button', { name: 'Fermer' }).click();

    // The published one, from its queue, by keyboard: reason typed, then Withhold.
    await page.getByTestId('review-queue').selectOption('included');
    await table.locator(`tr[data-duel="${ids.email}"] button`).click();
    await page.locator('#review-reason').fill('Adresse personnelle d’un particulier');
    await page.getByTestId('review-exclude').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('review-status').innerText()).toContain('Décision enregistrée');
    // The queue reloads after the status is announced: wait for it rather than race it.
    await expect.poll(() => page.getByTestId('review-empty').count()).toBe(1);

    const decision = await arena.arena.store.reviews.findDecision(ids.email);
    expect(decision).toMatchObject({ decision: 'exclude', reviewer: REVIEWER, reason: 'Adresse personnelle d’un particulier' });
    expect(await exported(arena)).not.toContain(EMAIL);

    const audit = (await arena.client.request('GET', '/api/v1/admin/audit?limit=100', undefined, admin)).json as AuditPage;
    expect(audit.entries).toContainEqual(
      expect.objectContaining({
        actor: REVIEWER,
        actor_kind: 'staff',
        method: 'PUT',
        route: '/api/v1/admin/review/:id',
        target: expect.stringContaining(`id=${ids.email}`),
        status: 200,
      }),
    );
    expect(errors).toEqual([]);
  }, 120_000);

  it('a reviewer reads the flagged votes by rule and group, and counts one back', async () => {
    const { page, errors } = await newPage(browser, { locale: 'en-GB' });
    await signIn(page, arena.baseUrl, '/admin/integrity');
    await expect.poll(() => page.getByTestId('integrity-total').innerText()).toContain('3 vote(s)');
    expect(await page.getByText('voted too soon to have read the answers').count()).toBeGreaterThan(0);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await screenshot(page, `console-integrity-${viewport.width}`);
      expect(await hasHorizontalOverflow(page), `sideways scroll at ${viewport.width} px`).toBe(false);
    }
    await page.setViewportSize(DESKTOP);
    await page
      .getByRole('button', { name: /Count the vote of/ })
      .first()
      .click();
    await expect.poll(() => page.getByTestId('integrity-status').innerText()).toContain('Decision recorded');
    await expect.poll(() => page.getByTestId('integrity-total').innerText()).toContain('2 vote(s)');
    expect(errors).toEqual([]);
  }, 60_000);
});
