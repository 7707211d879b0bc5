import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../packages/server/src/config/catalogue';
import { loadConfig } from '../packages/server/src/config/config';
import { minReadingMs } from '../packages/server/src/domain/maxx/maxx-people';
import { createMaxxService } from '../packages/server/src/main';
import { OPTIMAL, idsOf, rolesOf, scriptRoles, toolModelsYaml } from '../packages/server/test/maxx-fixture';
import { type TestArena, testCatalogueYaml, until } from '../packages/server/test/test-arena';
import { da } from '../packages/web/src/lib/i18n/da';
import { en } from '../packages/web/src/lib/i18n/en';
import { fr } from '../packages/web/src/lib/i18n/fr';
import { lt } from '../packages/web/src/lib/i18n/lt';
import { sv } from '../packages/web/src/lib/i18n/sv';
import { DESKTOP, PHONE, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';

/**
 * Check mode in a real browser: a published optimised set of the arena's own duel, a visitor who
 * opts in, sees the pair blind, chooses; then `agora maxx --calibrate` on the same store reports it.
 */

const ROLES = rolesOf('-e2e-check');
const LOCALES = { fr: ['fr-FR', fr], en: ['en-GB', en], da: ['da-DK', da], sv: ['sv-SE', sv], lt: ['lt-LT', lt] } as const;

describe('check mode in a real browser', () => {
  let browser: Browser;
  let arena: TestArena;
  let folder: string;
  let environment: { DATABASE_URL: string; AGORA_MODELS: string };

  beforeAll(async () => {
    arena = await startArena({ AGORA_MAXX_CHECKS: '1', AGORA_POSTPROCESS_EVERY_S: '0.1', AGORA_POSTPROCESS_IDLE_S: '0' }, (baseUrl) =>
      parseCatalogue(testCatalogueYaml(baseUrl) + toolModelsYaml(baseUrl, Object.values(ROLES)), 'test-models.yaml', {}),
    );
    arena.fake.defaultBehaviour = { tokensPerSecond: 0 };
    scriptRoles(arena, ROLES, 0);
    folder = mkdtempSync(join(tmpdir(), 'agora-e2e-check-'));
    writeFileSync(
      join(folder, 'models.yaml'),
      testCatalogueYaml(arena.fake.baseUrl) + toolModelsYaml(arena.fake.baseUrl, Object.values(ROLES)),
    );
    const location = arena.store.location;
    environment = {
      DATABASE_URL: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url,
      AGORA_MODELS: join(folder, 'models.yaml'),
    };
    // One voted duel, screened by the background job: one item of the set.
    const created = await arena.client.request('POST', '/api/v1/duels', { prompt: 'Pourquoi le ciel est-il bleu ?', mode: 'random' });
    await arena.client.stream(created.json.id as string);
    expect((await arena.client.request('POST', `/api/v1/duels/${String(created.json.id)}/vote`, { choice: 'a' })).status).toBe(200);
    await until(
      () => arena.arena.store.annotations.find(created.json.id as string),
      (found) => found?.status === 'done',
    );
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const maxx = (calibrate: boolean) =>
    createMaxxService(
      loadConfig(environment),
      arena.arena.store,
      parseCatalogue(readFileSync(environment.AGORA_MODELS, 'utf8'), 'models.yaml', {}),
      idsOf(ROLES),
      {
        backoffMs: 1,
        calibrate,
      },
    );

  it('shows a visitor who opts in a blind pair of the published set; the choice reaches agora maxx --calibrate', async () => {
    const { page, context, errors } = await newPage(browser);
    // Nothing published yet: the page says so, in the visitor's language.
    await page.goto(`${arena.baseUrl}/check`);
    await page.getByTestId('check-start').click();
    await page.getByTestId('check-none').waitFor();

    const set = maxx(false);
    expect(await set.run()).toMatchObject({ items: 1, kept: 1 });
    await set.assemble(join(folder, 'published'));

    await page.goto(`${arena.baseUrl}/check`);
    await page.getByTestId('check-start').click();
    await page.getByTestId('check-reply-A').waitFor();
    const [a, b] = await Promise.all([page.getByTestId('check-reply-A').innerText(), page.getByTestId('check-reply-B').innerText()]);
    // Blind: the set's reply on one side, the original on the other, nothing saying which.
    expect([a, b].filter((text) => text.includes(OPTIMAL))).toHaveLength(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'check-pair-desktop-light');
    // A person reads before choosing: the choice counts only after the replies can have been read.
    await page.waitForTimeout(minReadingMs(a.length, b.length) + 200);
    await page.getByTestId(a.includes(OPTIMAL) ? 'check-choose-a' : 'check-choose-b').click();
    await page.getByTestId('check-thanks').waitFor();
    expect(await page.getByText(fr['check.thanks']).count()).toBe(1);
    // One pair per item and visitor: nothing is left for them.
    await page.getByTestId('check-next').click();
    await page.getByTestId('check-none').waitFor();
    expect(errors).toEqual([]);
    await context.close();

    // The calibrated run reads the same replies from the cache, and reports the person's choice.
    const calibrated = maxx(true);
    await calibrated.run();
    const written = await calibrated.assemble(join(folder, 'calibrated'));
    expect(written.people).toEqual({ checks: 1, optimal: 1, original: 0, ties: 0 });
    expect(readFileSync(written.cardPath, 'utf8')).toMatch(/\| all \| 1 \| 1 \| 1 \| 0 \| 0 \| 100\.0 % \|/);
  }, 120_000);

  it('reads in every language at desktop and phone width, with no untranslated key and no overflow', async () => {
    for (const [name, [locale, catalogue]] of Object.entries(LOCALES)) {
      for (const viewport of [DESKTOP, PHONE]) {
        const { page, context, errors } = await newPage(browser, { locale, viewport });
        await page.goto(`${arena.baseUrl}/check`);
        await page.getByTestId('check-start').waitFor();
        expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(catalogue['check.title']);
        expect(await page.getByTestId('check-start').innerText()).toBe(catalogue['check.start']);
        expect(await page.locator('body').innerText()).not.toMatch(/check\.[a-z_]+/);
        expect(await hasHorizontalOverflow(page)).toBe(false);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `check-intro-${name}-${viewport === DESKTOP ? 'desktop' : 'phone'}-light`);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  }, 120_000);
});
