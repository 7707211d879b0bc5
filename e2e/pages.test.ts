import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../packages/web/src/lib/i18n/en';
import { fr } from '../packages/web/src/lib/i18n/fr';
import type { TestArena } from '../packages/server/test/test-arena';
import { DatasetExportService } from '../packages/server/src/services/dataset-export.service';
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

const PAGES = [
  { path: '/', name: 'arena' },
  { path: '/leaderboard', name: 'leaderboard' },
  { path: '/models', name: 'models' },
  { path: '/datasets', name: 'datasets' },
  { path: '/methodology', name: 'methodology' },
  { path: '/terms', name: 'terms' },
  { path: '/privacy', name: 'privacy' },
  { path: '/legal', name: 'legal' },
  { path: '/accessibility', name: 'accessibility' },
] as const;
/** Pages whose title is not a message (a model's name): checked with axe and photographed, not for their language. */
const OTHER_PAGES = [
  { path: '/models/zephyrine-405b', name: 'model-sheet' },
  { path: '/no-such-page', name: 'not-found' },
] as const;
const KEYS = Object.keys(fr);

/** Votes through the API (random and custom duels) so that the leaderboard has something to show. */
async function castVotes(arena: TestArena): Promise<void> {
  const choices = ['a', 'b', 'tie', 'a', 'both_bad', 'b', 'a', 'a', 'b', 'tie', 'a', 'b'] as const;
  for (const [index, choice] of choices.entries()) {
    const body =
      index % 3 === 2
        ? { prompt: `Question ${index}`, mode: 'custom', models: ['zephyrine-405b', 'miravel-24b'], locale: 'fr' }
        : { prompt: `Question ${index}`, locale: 'fr' };
    const created = await arena.client.request('POST', '/api/v1/duels', body);
    expect(created.status).toBe(201);
    await arena.client.stream(created.json.id);
    const vote = await arena.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice });
    expect(vote.status).toBe(200);
  }
}

/** Photographs the first-visit terms dialog, checks it with axe, then accepts it. */
async function acceptTermsAfterShot(page: Page, name: string): Promise<void> {
  await page.getByTestId('prompt').waitFor();
  if (await page.evaluate(() => localStorage.getItem('agora.terms-accepted') === '1')) return;
  await page.getByTestId('terms').waitFor();
  await screenshot(page, name, false);
  await acceptTerms(page);
}

/** Text visible on the page that is a catalogue key (a message that was not translated). */
async function visibleKeys(page: Page): Promise<string[]> {
  const text = await page.evaluate(() => document.body.innerText);
  return KEYS.filter((key) => text.includes(key));
}

describe('pages in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    // Custom-mode votes count on the main board here: their tie and wins between two named models make
    // a strongly connected pair, so the board always has a model that is not provisional and a chart
    // to draw. Random pairs alone left every model provisional in some runs (no chart: a CI failure).
    [arena, browser] = await Promise.all([startArena({ AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1' }), launchBrowser()]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0 };
    await castVotes(arena);
    // The leaderboard refreshes in the background after each vote (AGORA_LEADERBOARD_EVERY_VOTES=1),
    // at most once per refresh interval: wait for the refresh that counts the last vote, or a later
    // one would change the numbers under the tests (when the browser's launch made the votes straddle
    // an interval, a board of the first votes alone ended the wait below).
    await arena.arena.leaderboardRefresh.idle();
    for (let waited = 0; ; waited += 250) {
      const board = await arena.client.request('GET', '/api/v1/leaderboard');
      if ((board.json?.models?.length ?? 0) > 1) break;
      if (waited > 20_000) throw new Error(`the leaderboard stayed empty: ${board.status} ${JSON.stringify(board.json).slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it('keeps French and English complete (same keys, no empty message)', () => {
    expect(Object.keys(en).sort()).toEqual(KEYS.sort());
    for (const catalogue of [fr, en]) for (const value of Object.values(catalogue)) expect(value.trim()).not.toBe('');
  });

  it('renders the leaderboard after votes; toggles change the table; search, sort and CSV work', async () => {
    const { page, context, errors } = await newPage(browser);
    await page.goto(`${arena.baseUrl}/leaderboard`);
    const table = page.getByTestId('leaderboard-table');
    await table.waitFor();
    const rows = () => table.locator('tbody tr').count();
    const total = await rows();
    expect(total).toBeGreaterThan(1);
    const plainText = await table.innerText();
    expect(plainText).toMatch(/Zephyrine Ultra|Miravel Swift/);

    // The mode toggle: custom duels only involve two models.
    await page.getByTestId('filter-mode').selectOption('custom');
    await expect
      .poll(async () => await page.locator('[data-testid="leaderboard-table"], [data-testid="leaderboard-empty"]').first().innerText())
      .not.toBe(plainText);
    await page.getByTestId('filter-mode').selectOption('');
    await expect.poll(rows).toBe(total);

    // Style control: another view of the same votes, which names the effect of each style feature. (Its
    // table can read as the plain one: with a dozen votes every rating is provisional, shown as a dash.)
    expect(await page.getByTestId('style-effects').count()).toBe(0);
    await page.getByTestId('style-controlled').check();
    await expect
      .poll(async () => ((await page.getByTestId('style-effects').count()) ? await page.getByTestId('style-effects').innerText() : ''))
      .toMatch(/^Effet du style sur les votes.*longueur [+−]?\d+ · titres [+−]?\d+ · listes [+−]?\d+ · gras [+−]?\d+$/);
    await page.getByTestId('style-plain').check();
    await expect.poll(() => page.getByTestId('style-effects').count()).toBe(0);
    await expect.poll(() => table.innerText()).toBe(plainText);

    // Search and sort.
    await page.getByTestId('leaderboard-search').fill('zephyr');
    await expect.poll(rows).toBe(1);
    await page.getByTestId('leaderboard-search').fill('');
    await page.getByRole('button', { name: /Trier par Votes/ }).click();
    expect(await table.locator('thead th[aria-sort]').count()).toBe(1);

    // CSV download.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('csv').click()]);
    expect(download.suggestedFilename()).toMatch(/^agora-leaderboard-plain.*\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.trim().split(/\r?\n/);
    expect(lines[0]).toMatch(/^rank,rank_best,rank_worst,tier,model,name,rating/);
    expect(lines).toHaveLength(total + 1);

    // The charts have a table alternative.
    expect(await page.locator('figure svg[role="img"]').count()).toBeGreaterThanOrEqual(1);
    expect(await page.locator('figure details table').count()).toBeGreaterThanOrEqual(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the view asked last, when an earlier view answers after it', async () => {
    const { page, context, errors } = await newPage(browser);
    await page.goto(`${arena.baseUrl}/leaderboard`);
    const table = page.getByTestId('leaderboard-table');
    await table.waitFor();
    const overall = await table.innerText();
    // The custom-mode view would answer late, with another table: the overall view, asked after it,
    // answers first. The page cancels the custom request when the overall view is asked; the route
    // answers only once the page has given up on it (a page that does not cancel fails here, waiting).
    const late = { ...(await (await page.request.get(`${arena.baseUrl}/api/v1/leaderboard`)).json()), models: [] };
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/v1/leaderboard*mode=custom*', async (route) => {
      await released;
      await route.fulfill({ json: late }).catch(() => {});
    });
    const cancelled = page.waitForEvent('requestfailed', (request) => request.url().includes('mode=custom'));
    await page.getByTestId('filter-mode').selectOption('custom');
    await page.getByTestId('filter-mode').selectOption('');
    expect((await cancelled).failure()?.errorText).toMatch(/ABORTED|cancel/i);
    release();
    await expect.poll(() => table.innerText()).toBe(overall);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says so, without a chart or an error, when every model of the view is still provisional', async () => {
    const { page, context, errors } = await newPage(browser);
    // The same view as the server's, with every model provisional (as a view with one decisive vote between two models).
    await page.route('**/api/v1/leaderboard*', async (route) => {
      const body = (await (await route.fetch()).json()) as {
        models: { provisional: boolean; rank: number | null; rank_best: number | null; rank_worst: number | null; tier: number | null }[];
      };
      for (const row of body.models) Object.assign(row, { provisional: true, rank: null, rank_best: null, rank_worst: null, tier: null });
      await route.fulfill({ json: body });
    });
    await page.goto(`${arena.baseUrl}/leaderboard`);
    await page.getByTestId('leaderboard-table').waitFor();
    await expect.poll(() => page.getByText(fr['leaderboard.chart_ratings_empty']).isVisible()).toBe(true);
    expect(await page.locator('figure svg').count()).toBe(0);
    expect(await page.evaluate(() => document.body.innerText)).not.toContain('NaN');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches between French and English without reloading; no untranslated key shows', async () => {
    const { page, context } = await newPage(browser, { locale: 'fr-FR' });
    for (const { path } of PAGES) {
      await page.goto(`${arena.baseUrl}${path}`);
      await page.locator('h1').waitFor();
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
      const french = await page.locator('h1').innerText();
      expect(await visibleKeys(page)).toEqual([]);
      await page.getByTestId('locale').selectOption('en');
      await expect.poll(() => page.locator('h1').innerText()).not.toBe(french);
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      // The title is a message, or the operator's English text of the page.
      if (!['/methodology', '/terms', '/privacy', '/legal', '/accessibility'].includes(path))
        expect(Object.values(en)).toContain(await page.locator('h1').innerText());
      expect(await visibleKeys(page)).toEqual([]);
      await page.getByTestId('locale').selectOption('fr');
      await expect.poll(() => page.locator('h1').innerText()).toBe(french);
    }
    // An English browser gets English first.
    const english = await newPage(browser, { locale: 'en-GB' });
    await english.page.goto(arena.baseUrl);
    expect(await english.page.locator('h1').innerText()).toBe(en['arena.title']);
    await english.context.close();
    await context.close();
  });

  it('shows every page in Danish, Swedish and Lithuanian with no untranslated key, and passes axe there', async () => {
    for (const locale of ['da', 'sv', 'lt']) {
      const { page, context } = await newPage(browser, { locale: `${locale}-${locale.toUpperCase()}`, viewport: PHONE });
      for (const { path, name } of PAGES) {
        await page.goto(`${arena.baseUrl}${path}`);
        await page.locator('h1').waitFor();
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale);
        expect(await visibleKeys(page)).toEqual([]);
        if (path === '/') await acceptTerms(page);
        if (path === '/leaderboard') await page.getByTestId('leaderboard-table').waitFor();
        expect(await axeViolations(page), `${path} in ${locale}`).toEqual([]);
        await screenshot(page, `${name}-phone-light-${locale}`);
      }
      await context.close();
    }
  }, 90_000);

  it('passes axe-core (no serious or critical violation) on every page, light and dark, and saves screenshots', async () => {
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const viewport of [DESKTOP, PHONE]) {
        const { page, context } = await newPage(browser, { colorScheme, viewport });
        for (const { path, name } of [...PAGES, ...OTHER_PAGES]) {
          await page.goto(`${arena.baseUrl}${path}`);
          await page.locator('h1').waitFor();
          if (path === '/leaderboard') await page.getByTestId('leaderboard-table').waitFor();
          if (path === '/models') await page.getByTestId('model-list').waitFor();
          if (path.startsWith('/models/')) await page.getByTestId('sheet-ranking').waitFor();
          if (path === '/') await acceptTermsAfterShot(page, `terms-dialog-${viewport === DESKTOP ? 'desktop' : 'phone'}-${colorScheme}`);
          found.push(...(await axeViolations(page)).map((violation) => `${path} (${colorScheme}): ${violation}`));
          expect(await hasHorizontalOverflow(page), `${path} overflows at ${viewport.width}px`).toBe(false);
          await screenshot(page, `${name}-${viewport === DESKTOP ? 'desktop' : 'phone'}-${colorScheme}`);
        }
        // The arena after a duel (code, reasoning, reactions, the vote panel), then the reveal.
        arena.fake.defaultBehaviour = {
          tokensPerSecond: 0,
          reasoning: 'Je réfléchis un instant.',
          text: 'Voici **du code** :\n\n```python\nfor i in range(3):\n    print("bonjour", i, True)  # commentaire\n```\n\nEt un [lien](https://example.org).',
        };
        await page.goto(arena.baseUrl);
        await acceptTerms(page);
        await page.getByTestId('prompt').fill('Quelle est la capitale de la France ?');
        await page.getByTestId('prompt').press('Enter');
        await page.getByTestId('vote-panel').waitFor();
        await page.getByTestId('like-a').click();
        await page.locator('[data-choice="a"]').click();
        await page
          .locator('details.reasoning summary')
          .first()
          .click()
          .catch(() => {});
        found.push(...(await axeViolations(page)).map((violation) => `/ duel (${colorScheme}): ${violation}`));
        await page.getByTestId('vote-submit').click();
        await page.getByTestId('reveal').waitFor();
        found.push(...(await axeViolations(page)).map((violation) => `/ reveal (${colorScheme}): ${violation}`));
        await screenshot(page, `arena-duel-${viewport === DESKTOP ? 'desktop' : 'phone'}-${colorScheme}`);
        await context.close();
      }
    }
    expect(found).toEqual([]);
  }, 120_000);

  it('lists what was published on the datasets page: the last export with its rows, and the optimised set', async () => {
    const { page, context, errors } = await newPage(browser);
    await page.goto(`${arena.baseUrl}/datasets`);
    await expect.poll(() => page.getByTestId('datasets-empty').getByText(fr['open.datasets.empty']).count()).toBe(1);
    // A real export of the arena's store, and an optimised set's record (its pipeline is tested on its own in maxx.test.ts).
    const out = mkdtempSync(join(tmpdir(), 'agora-e2e-export-'));
    try {
      const exported = await new DatasetExportService(arena.arena.store.datasets, new Map(), { privateCohorts: [] }).export({
        outDir: out,
        formats: ['jsonl'],
        datasets: ['votes', 'dpo'],
      });
      await arena.arena.store.datasets.recordBuild({
        id: 'e2e-optimised',
        kind: 'optimised',
        createdAt: '2026-11-30T12:00:00.000Z',
        summary: {
          runKey: 'e2e',
          models: { generator: 'writer-70b', reviewer: 'reviewer-32b', critic: 'critic-70b', judge: 'judge-405b', stylist: 'writer-70b' },
          subsets: [
            { name: 'arena-general', rows: 1500 },
            { name: 'arena-both_bad', rows: 2400 },
            { name: 'reactions', rows: 2675 },
          ],
          languages: [{ language: 'fr', rows: 6575 }],
          judge_agreement: { pairs: 412, rate: 0.7257, low: 0.6808, high: 0.7665 },
        },
      });
      for (const viewport of [DESKTOP, PHONE]) {
        const { page: shown, context: shownContext } = await newPage(browser, { viewport });
        await shown.goto(`${arena.baseUrl}/datasets`);
        // One votes file per language in each folder, the same rows in both: the page says their sum, from the public folder.
        const rows = (dataset: string) =>
          exported.files.filter((file) => file.dataset === dataset && file.tier === 'public').reduce((sum, file) => sum + file.rows, 0);
        const total = (dataset: string) =>
          fr['open.datasets.rows_total'].replace('{rows}', new Intl.NumberFormat('fr').format(rows(dataset)));
        await expect.poll(() => shown.getByTestId('dataset-votes').getByText(total('votes')).count()).toBe(1);
        expect(await shown.getByTestId('dataset-dpo').getByText(total('dpo')).count()).toBe(1);
        // Only the public folder's files are offered, one link per file.
        const links = await shown.getByTestId('download').evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href')));
        expect(links).toHaveLength(exported.files.filter((file) => file.tier === 'public').length);
        expect(links.some((href) => href?.includes('gated'))).toBe(false);
        await expect.poll(() => shown.getByRole('row', { name: /reactions 2 675/ }).count()).toBe(1);
        expect(await shown.getByText('Le juge est d’accord avec les visiteurs sur 73 % de 412 paires').count()).toBe(1);
        expect(await axeViolations(shown)).toEqual([]);
        expect(await hasHorizontalOverflow(shown)).toBe(false);
        await screenshot(shown, `datasets-published-${viewport === DESKTOP ? 'desktop' : 'phone'}-light`);
        await shownContext.close();
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('filters the model catalogue and opens a model’s sheet, with its ranking; the theme can be switched', async () => {
    const { page, context, errors } = await newPage(browser);
    await page.goto(`${arena.baseUrl}/models`);
    const cards = page.getByTestId('model-list').locator('> li');
    await expect.poll(() => cards.count()).toBe(6);
    expect(await page.getByRole('status').first().innerText()).toBe('Modèles : 6');
    await page.getByTestId('filter-organisation').selectOption('Quorvex Labs');
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByTestId('filter-size').selectOption('small');
    await expect.poll(() => cards.count()).toBe(1);
    await cards.first().getByTestId('model-link').click();
    await expect.poll(() => page.getByTestId('sheet-title').innerText()).toBe('Kestrix Nano');
    expect(await page.getByTestId('sheet-facts').innerText()).toContain('Apache 2.0');
    await page.getByTestId('sheet-ranking').waitFor();
    await page.getByTestId('sheet-duel').click();
    await expect.poll(() => page.getByTestId('vs-banner').innerText()).toContain('Kestrix Nano');
    // From the leaderboard, a model's name leads to its sheet.
    await page.goto(`${arena.baseUrl}/leaderboard`);
    await page.getByTestId('leaderboard-table').getByRole('link', { name: 'Zephyrine Ultra' }).click();
    await expect.poll(() => page.getByTestId('sheet-title').innerText()).toBe('Zephyrine Ultra');
    // An unknown model, and an unknown page, say so in the visitor's language.
    await page.goto(`${arena.baseUrl}/models/no-such-model`);
    await page.getByTestId('sheet-not-found').waitFor();
    await page.goto(`${arena.baseUrl}/no-such-page`);
    expect(await page.getByTestId('error-page').innerText()).toBe(fr['error.not_found']);
    // The models page says so when the API is down, rather than "no model matches".
    await page.route('**/api/v1/models', (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.goto(`${arena.baseUrl}/models`);
    await page.getByTestId('models-error').waitFor();
    await page.unroute('**/api/v1/models');
    expect(errors.filter((error) => !/503/.test(error))).toEqual([]);
    await page.getByLabel('Apparence').selectOption('dark');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await context.close();
  });

  it('loads the arena with proof of work off without a failing request or a console error', async () => {
    const { page, context, errors } = await newPage(browser);
    const failing: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 400) failing.push(`${response.status()} ${response.url()}`);
    });
    page.on('requestfailed', (request) => failing.push(`failed ${request.url()}`));
    page.on('console', (message) => {
      if (message.type() === 'error') failing.push(`console: ${message.text()}`);
    });
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await page.waitForLoadState('networkidle');
    expect(failing).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('ships at most 150 kB of gzipped JavaScript on the arena route, the personal-data rules included', async () => {
    const { page, context } = await newPage(browser);
    const scripts = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.set(response.url(), response.body());
    });
    await page.goto(arena.baseUrl, { waitUntil: 'domcontentloaded' });
    await page.getByTestId('prompt').waitFor();
    // Time from navigation start until the prompt box exists (the app is mounted and interactive).
    const interactive = Math.round(await page.evaluate(() => performance.now()));
    await page.waitForLoadState('networkidle');
    const measure = async () => {
      let gzipped = 0;
      let raw = 0;
      for (const body of scripts.values()) {
        const bytes = await body;
        raw += bytes.length;
        gzipped += gzipSync(bytes, { level: 9 }).length;
      }
      return { files: scripts.size, raw: (raw / 1024).toFixed(1), gzipped };
    };
    const onLoad = await measure();
    // The rules of the warning before sending come with the first keystroke: they count too.
    await acceptTerms(page);
    await page.getByTestId('prompt').fill('Mon numéro : 06 12 34 56 78');
    await page.getByTestId('prompt-pii-warning').waitFor();
    await page.waitForLoadState('networkidle');
    const typed = await measure();
    console.log(
      `[e2e/size] arena route: ${onLoad.files} JS files, ${onLoad.raw} kB raw, ${(onLoad.gzipped / 1024).toFixed(1)} kB gzipped on load; ${typed.files} files, ${(typed.gzipped / 1024).toFixed(1)} kB gzipped once the personal-data rules are loaded (budget 150 kB); prompt box ready in ${interactive} ms`,
    );
    expect(typed.files).toBeGreaterThan(onLoad.files);
    expect(typed.gzipped).toBeLessThanOrEqual(150 * 1024);
    // The time to an interactive prompt box is printed, not asserted: on a runner sharing 2 cores with
    // the rest of the suite it measured 1.1 to 3.1 s for the same build (speed goals are benchmarks).
    await context.close();
  });
});
