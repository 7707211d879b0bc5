import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import type { PublishedDatasets } from '@agora/contract';
import { sql } from 'kysely';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../packages/server/src/db/dialect';
import { createStore } from '../packages/server/src/db/unit-of-work';
import { DATASET_NAMES } from '../packages/server/src/domain/datasets/export-columns';
import { exportModelFacts } from '../packages/server/src/domain/datasets/export-model-facts';
import { DatasetExportService } from '../packages/server/src/services/dataset-export.service';
import { type Seed, catalogue, seed } from '../packages/server/test/export-seeds';
import type { TestArena } from '../packages/server/test/test-arena';
import { da } from '../packages/web/src/lib/i18n/da';
import { en } from '../packages/web/src/lib/i18n/en';
import { fr, type Messages } from '../packages/web/src/lib/i18n/fr';
import { lt } from '../packages/web/src/lib/i18n/lt';
import { sv } from '../packages/web/src/lib/i18n/sv';
import { DESKTOP, PHONE, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';

const CATALOGUES: Record<string, Messages> = { fr, en, da, sv, lt };
const LOCALES = ['fr-FR', 'en-GB', 'da-DK', 'sv-SE', 'lt-LT'] as const;
/** Phone width in the dark theme, desktop in the light one: both themes pass axe. */
const VIEWPORTS = [
  ['desktop', DESKTOP, 'light'],
  ['phone', PHONE, 'dark'],
] as const;
const HUB = { AGORA_HUB_PUBLIC_DATASET: 'agora-e2e/arena-public', AGORA_HUB_GATED_DATASET: 'agora-e2e/arena-gated' };

const choices = ['a', 'b', 'tie', 'both_bad', 'a', 'b', 'a'] as const;
/** Fourteen conversations over four days in French, English and one Lithuanian (below the published cell). */
const SEEDS: Seed[] = Array.from({ length: 14 }, (_, index) => ({
  name: `Question ${index} about the weather in Lyon`,
  languages: [index < 7 ? 'fr' : index < 13 ? 'en' : 'lt'],
  categories: index % 2 === 0 ? ['Education'] : ['Education', 'Sports'],
  ...(index % 5 === 4 ? {} : { vote: { choice: choices[index % choices.length]! } }),
  reactions: index % 3 === 0 ? [{ turn: 1, side: 'a' as const, value: 'like' as const }] : [],
  ...(index === 9 ? { models: ['kestrix-8b', 'sollary-32b'] as [string, string] } : {}),
  at: `2026-11-0${1 + (index % 4)}T1${index % 10}:00:00.000Z`,
}));

const lang = (locale: string) => locale.slice(0, 2);

/**
 * The datasets page and the statistics page in a real browser, in each language at phone and desktop
 * width: a file downloaded from the datasets page is read by DuckDB, the statistics page shows the
 * store's own counts; both axe clean and without sideways scrolling; and their empty states.
 */
describe('the open data pages in a real browser', () => {
  let arena: TestArena;
  let empty: TestArena;
  let browser: Browser;
  const out = mkdtempSync(join(tmpdir(), 'agora-e2e-open-data-'));

  beforeAll(async () => {
    [arena, empty, browser] = await Promise.all([startArena(HUB), startArena(), launchBrowser()]);
    const store = createStore(openDatabase(arena.store.location));
    try {
      await seed(store, arena.store.location, SEEDS);
      const facts = exportModelFacts(catalogue(), { method: '0.9.1', zone: undefined });
      await new DatasetExportService(store.datasets, facts, { privateCohorts: [] }).export({
        outDir: join(out, 'export'),
        formats: ['parquet', 'jsonl'],
        datasets: [...DATASET_NAMES],
        datasetLicense: 'cc-by-4.0',
      });
    } finally {
      await store.close();
    }
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
    await empty?.close();
    rmSync(out, { recursive: true, force: true });
  });

  /** Rows of a downloaded file as DuckDB counts them. */
  async function duckdbRows(path: string, format: string): Promise<number> {
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      const reader = format === 'parquet' ? 'read_parquet' : 'read_json_auto';
      const rows = (await connection.runAndReadAll(`select count(*) as n from ${reader}('${path}')`)).getRowObjects();
      return Number(rows[0]!.n);
    } finally {
      connection.closeSync();
    }
  }

  async function expectClean(page: Page, name: string): Promise<void> {
    expect(await axeViolations(page), name).toEqual([]);
    expect(await hasHorizontalOverflow(page), name).toBe(false);
    await screenshot(page, name);
  }

  it('shows each public dataset, its licence and Hub links, and downloads a file DuckDB reads, in every language', async () => {
    const published = (await (await fetch(`${arena.baseUrl}/api/v1/datasets`)).json()) as PublishedDatasets;
    for (const locale of LOCALES) {
      const messages = CATALOGUES[lang(locale)]!;
      for (const [viewportName, viewport, colorScheme] of VIEWPORTS) {
        const { context, page, errors } = await newPage(browser, { locale, viewport, colorScheme });
        await page.goto(`${arena.baseUrl}/datasets`);
        await page.getByTestId('export-status').waitFor();
        const text = await page.locator('main').innerText();
        expect(text).toContain(messages['open.license.cc-by-4.0']);
        expect(text).toContain(messages['open.datasets.public_title']);
        // The turn verdicts' subsets are written only when visitors gave verdicts.
        const shown: readonly string[] = published.export!.tiers.find((tier) => tier.name === 'public')!.datasets;
        for (const dataset of DATASET_NAMES.filter((name) => shown.includes(name)))
          expect(text).toContain(messages[`open.datasets.about.${dataset}`]);
        expect(text).not.toContain('./bin/agora');
        expect(await page.getByTestId('hub-links').locator('a').first().getAttribute('href')).toBe(
          'https://huggingface.co/datasets/agora-e2e/arena-public',
        );
        expect(await page.getByTestId('preview-votes').locator('tbody tr').count()).toBe(5);
        // Every link on the page leads to a public file: none to the gated folder.
        const links = await page.getByTestId('download').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
        expect(links.length).toBe(published.export!.files.length);
        expect(links.every((href) => href?.startsWith(`/api/v1/datasets/${published.export!.id}/files/`) && !href.includes('gated'))).toBe(
          true,
        );
        const format = viewportName === 'desktop' ? 'parquet' : 'jsonl';
        const link = page.getByTestId('dataset-votes').locator(`[data-testid="download"][data-format="${format}"]`).first();
        const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
        const saved = join(out, `${lang(locale)}-${viewportName}.${format}`);
        await download.saveAs(saved);
        const href = await link.getAttribute('href');
        const listed = published.export!.files.find((file) => file.url === href)!;
        expect(await duckdbRows(saved, format)).toBe(listed.rows);
        await expectClean(page, `open-data-datasets-${lang(locale)}-${viewportName}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  }, 240_000);

  it('shows the store’s counts on the statistics page, in every language', async () => {
    const db = openDatabase(arena.store.location);
    const count = async (query: string) => Number((await sql<{ n: string | number }>`${sql.raw(query)}`.execute(db)).rows[0]!.n);
    const totals = {
      duels: await count('select count(*) as n from duels'),
      votes: await count('select count(*) as n from votes'),
      reactions: await count('select count(*) as n from reactions'),
    };
    const days = await sql<{
      day: string;
      n: string | number;
    }>`select substr(created_at, 1, 10) as day, count(*) as n from votes group by day order by day`.execute(db);
    const ties = await count(`select count(*) as n from votes where choice = 'tie'`);
    await db.destroy();
    expect(totals).toEqual({ duels: 14, votes: 12, reactions: 5 });
    for (const locale of LOCALES) {
      const messages = CATALOGUES[lang(locale)]!;
      for (const [viewportName, viewport, colorScheme] of VIEWPORTS) {
        const { context, page, errors } = await newPage(browser, { locale, viewport, colorScheme });
        await page.goto(`${arena.baseUrl}/statistics`);
        await page.getByTestId('statistics-totals').waitFor();
        const number = (value: number) => new Intl.NumberFormat(lang(locale)).format(value);
        for (const [key, value] of Object.entries(totals))
          expect(await page.locator(`[data-total="${key}"]`).innerText()).toBe(number(value));
        const dayRows = await page
          .getByTestId('statistics-days')
          .locator('tbody tr')
          .evaluateAll((rows) =>
            rows.map((row) => [row.querySelector('th')!.textContent.trim(), row.querySelectorAll('td')[1]!.textContent.trim()]),
          );
        expect(dayRows).toEqual(days.rows.map((row) => [row.day, number(Number(row.n))]));
        const tieRow = page.getByTestId('statistics-choices').locator('tbody tr', { hasText: messages['open.stats.choice.tie'] });
        expect(await tieRow.locator('[data-count]').innerText()).toBe(number(ties));
        const text = await page.locator('main').innerText();
        expect(text).toContain(messages['open.stats.title']);
        expect(text).toContain(messages['open.topic.Education']);
        expect(text).toContain(messages['open.stats.other']);
        for (const other of Object.values(CATALOGUES).filter((catalogue) => catalogue !== messages))
          for (const leak of [other['open.stats.days_title'], other['open.stats.models_note'], other['open.stats.languages_title']])
            if (!Object.values(messages).includes(leak)) expect(text).not.toContain(leak);
        await expectClean(page, `open-data-statistics-${lang(locale)}-${viewportName}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  }, 240_000);

  it('says in the visitor’s language when nothing is published or counted yet', async () => {
    for (const locale of LOCALES) {
      const messages = CATALOGUES[lang(locale)]!;
      for (const [viewportName, viewport, colorScheme] of VIEWPORTS) {
        const { context, page, errors } = await newPage(browser, { locale, viewport, colorScheme });
        await page.goto(`${empty.baseUrl}/datasets`);
        expect(await page.getByTestId('datasets-empty').innerText()).toContain(messages['open.datasets.empty']);
        await expectClean(page, `open-data-datasets-empty-${lang(locale)}-${viewportName}`);
        await page.goto(`${empty.baseUrl}/statistics`);
        expect(await page.getByTestId('statistics-empty').innerText()).toContain(messages['open.stats.empty']);
        await expectClean(page, `open-data-statistics-empty-${lang(locale)}-${viewportName}`);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  }, 240_000);
});
