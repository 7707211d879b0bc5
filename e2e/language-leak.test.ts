import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../packages/server/src/config/catalogue';
import { type TestArena, testCatalogueYaml } from '../packages/server/test/test-arena';
import { DESKTOP, PHONE, acceptTerms, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { LOCALES, type Locale, leakOf, leaksOn } from './language-leak';

/**
 * Every page and every state of the arena, in each of the five languages, shows no string of
 * another language (e2e/language-leak.ts says how a leak is recognised). The pages are the routes
 * of packages/web/src/routes as they are when the test runs: a new page is read without editing
 * this file (a new dynamic route needs an example in EXAMPLES).
 */

const ROUTES = fileURLToPath(new URL('../packages/web/src/routes/', import.meta.url));
/** An address for each dynamic route. */
const EXAMPLES: Record<string, string[]> = {
  '/[page=info]': ['/methodology', '/terms', '/privacy', '/legal', '/accessibility'],
  '/models/[id]': ['/models/zephyrine-405b', '/models/ombrel-70b'],
  '/models/[id]/vs/[other]': ['/models/zephyrine-405b/vs/ombrel-70b'],
};

/** The web app's pages, from its route folders (+page.svelte), dynamic ones through EXAMPLES; plus an address no page has. */
function pagePaths(folder = ROUTES, prefix = ''): string[] {
  const entries = readdirSync(folder, { withFileTypes: true });
  const here = entries.some((entry) => entry.name === '+page.svelte') ? [prefix || '/'] : [];
  const below = entries
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => pagePaths(`${folder}${entry.name}/`, `${prefix}/${entry.name}`));
  return [...here, ...below].flatMap((path) => {
    if (!path.includes('[')) return [path];
    const examples = EXAMPLES[path];
    if (!examples) throw new Error(`the route ${path} has no example address in EXAMPLES of e2e/language-leak.test.ts`);
    return examples;
  });
}

const ANSWER = 'Une réponse assez longue pour être lue.\n\nDeux paragraphes, puis la fin.';
const DESCRIPTIONS = {
  fr: 'Un grand modèle de test, qui répond à tout.',
  en: 'A large test model that answers everything.',
  da: 'En stor testmodel, der svarer på alt.',
  sv: 'En stor testmodell som svarar på allt.',
  lt: 'Didelis bandomasis modelis, atsakantis į viską.',
};

/** The test catalogue with what the catalogue may localise: one model described in five languages, one closed model. */
function catalogueYaml(baseUrl: string): string {
  const description = `    description:\n${Object.entries(DESCRIPTIONS)
    .map(([locale, text]) => `      ${locale}: ${text}\n`)
    .join('')}`;
  return testCatalogueYaml(baseUrl)
    .replace('    organisation: Quorvex Labs\n', `    organisation: Quorvex Labs\n${description}`)
    .replace(/(id: ombrel-70b[\s\S]*?)license: Apache 2.0\n {4}open_weights: true/, '$1license: Proprietary\n    open_weights: false');
}

const WIDTHS = ['desktop', 'phone'] as const;

describe('no string of another language, on every page and state, in each language', () => {
  let arena: TestArena;
  let noModels: TestArena;
  let browser: Browser;
  const checked: Record<string, number> = {};
  beforeAll(async () => {
    [arena, noModels, browser] = await Promise.all([
      startArena({ AGORA_PUBLIC: '1', AGORA_OPERATOR_CONTACT: 'privacy@agora.example' }, (base) =>
        parseCatalogue(catalogueYaml(base), 'models.yaml', {}),
      ),
      startArena({}, (base) =>
        parseCatalogue(
          testCatalogueYaml(base).replaceAll('    provider:\n', '    provider:\n      api_key_env: MISSING_KEY\n'),
          'models.yaml',
          {},
        ),
      ),
      launchBrowser(),
    ]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: ANSWER };
    // Votes, so that the leaderboard, the sheets and the statistics have rows to word.
    for (const choice of ['a', 'b', 'tie', 'both_bad', 'a', 'b'] as const) {
      const created = await arena.client.request('POST', '/api/v1/duels', { prompt: `Question ${choice}`, locale: 'fr' });
      await arena.client.stream(created.json.id);
      await arena.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice });
    }
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
    await noModels?.close();
  });

  /** Fails with every leaking string of the state, named; counts the states read. */
  async function expectNoLeak(page: Page, locale: Locale, state: string): Promise<void> {
    expect(await page.evaluate(() => document.documentElement.lang), state).toBe(locale);
    expect({ state, locale, leaks: await leaksOn(page, locale) }).toEqual({ state, locale, leaks: [] });
    checked[locale] = (checked[locale] ?? 0) + 1;
  }

  async function settle(page: Page): Promise<void> {
    await page.waitForLoadState('networkidle');
    await page.locator('h1').first().waitFor();
  }

  it.each(LOCALES.flatMap((locale) => WIDTHS.map((width) => [locale, width] as const)))(
    '%s at %s: every page of the web app',
    async (locale, width) => {
      // At phone width more is said: the menu button, the tables' scroll hints.
      const viewport = width === 'phone' ? PHONE : DESKTOP;
      const { page, context, errors } = await newPage(browser, { locale: `${locale}-${locale.toUpperCase()}`, viewport });
      await page.goto(arena.baseUrl);
      await acceptTerms(page);
      // Every page is read before the verdict, so that one failure names all the leaks of the language.
      const leaks: Record<string, string[]> = {};
      for (const path of [...pagePaths(), '/no-such-page']) {
        await page.goto(`${arena.baseUrl}${path}`);
        await settle(page);
        expect(await page.evaluate(() => document.documentElement.lang), path).toBe(locale);
        if (path === '/privacy' && width === 'desktop') await screenshot(page, `language-leak-privacy-${locale}-desktop`);
        const found = await leaksOn(page, locale);
        if (found.length > 0) leaks[path] = found;
        checked[locale] = (checked[locale] ?? 0) + 1;
      }
      expect(leaks).toEqual({});
      expect(errors).toEqual([]);
      await context.close();
    },
    60_000,
  );

  it.each(LOCALES)(
    '%s: the arena before a duel, streaming, answered, reporting, revealed, failing and without models',
    async (locale) => {
      const { page, context } = await newPage(browser, { locale: `${locale}-${locale.toUpperCase()}` });
      await page.goto(arena.baseUrl);
      await settle(page);
      await expectNoLeak(page, locale, 'terms dialog');
      await acceptTerms(page);
      await expectNoLeak(page, locale, 'before a duel');

      arena.fake.defaultBehaviour = { tokensPerSecond: 8, text: ANSWER };
      await page.getByTestId('prompt').fill(`Une question (${locale})`);
      await page.getByTestId('prompt').press('Enter');
      await page.getByTestId('pane-a').waitFor();
      await expectNoLeak(page, locale, 'streaming');
      await page.getByTestId('vote-panel').waitFor({ timeout: 20_000 });
      await expectNoLeak(page, locale, 'answered, vote panel');
      await page.getByTestId('report-open-1-a').click();
      await page.getByTestId('report-form-1-a').waitFor();
      await expectNoLeak(page, locale, 'report form');
      await page.locator('[data-choice="a"]').click();
      await page.getByTestId('vote-submit').click();
      await page.getByTestId('reveal').waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByTestId('reveal').innerText()).toMatch(/Wh/);
      await expectNoLeak(page, locale, 'reveal with impact');
      await screenshot(page, `language-leak-reveal-${locale}-desktop`);

      arena.fake.defaultBehaviour = { httpStatus: 500, text: ANSWER };
      await page.goto(arena.baseUrl);
      await settle(page);
      await page.getByTestId('prompt').fill(`Une question qui échoue (${locale})`);
      await page.getByTestId('prompt').press('Enter');
      await page.getByTestId('error-card').waitFor();
      await expectNoLeak(page, locale, 'error card');
      arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: ANSWER };

      await page.goto(noModels.baseUrl);
      await acceptTerms(page);
      await page.getByTestId('setup-notice').waitFor();
      await expectNoLeak(page, locale, 'no models');
      await screenshot(page, `language-leak-no-models-${locale}-desktop`);
      // The no-model hint and the operator's contact at phone width.
      await page.setViewportSize(PHONE);
      await screenshot(page, `language-leak-no-models-${locale}-phone`);
      await page.goto(`${arena.baseUrl}/privacy`);
      await page.getByTestId('operator-contact').waitFor();
      expect(await page.getByTestId('operator-contact').innerText()).toContain('privacy@agora.example');
      expect(await hasHorizontalOverflow(page)).toBe(false);
      await screenshot(page, `language-leak-privacy-${locale}-phone`);
      await context.close();
    },
    90_000,
  );

  it('sees a leak when there is one: an English sentence, a Danish one in Swedish, an English button, a French page title', async () => {
    const { page, context } = await newPage(browser, { locale: 'fr-FR' });
    await page.goto(`${arena.baseUrl}/methodology`);
    await settle(page);
    expect(await leaksOn(page, 'fr')).toEqual([]);
    await page.evaluate(() => {
      const injected = document.createElement('p');
      injected.textContent = 'Your vote has been recorded and it counts in the ranking.';
      document.querySelector('main')!.append(injected);
    });
    expect(await leaksOn(page, 'fr')).toEqual(['"Your vote has been recorded and it counts in the ranking." (detected:en)']);
    await context.close();
    // A catalogue's own string in the wrong page, and the other witnesses alone.
    expect(await leakOf('Send', 'lt')).toBe('catalogue:en');
    expect(await leakOf('Hvad er problemet?', 'sv')).toBe('catalogue:da');
    expect(await leakOf('Energi og CO₂ for hvert svar er ikke kendt', 'sv')).toMatch(/^(detected|words):da$/);
    expect(await leakOf('Méthodologie', 'en')).toBe('catalogue:fr');
    expect(await leakOf('of a 5 W LED bulb —', 'da')).toBe('detected:en');
    // And none where the text is the page's.
    expect(await leakOf('Energin för varje svar uppskattas med EcoLogits-metoden', 'sv')).toBeUndefined();
    expect(await leakOf('Zephyrine Ultra · Quorvex Labs', 'lt')).toBeUndefined();
  });

  afterAll(() => {
    console.log(`[e2e/language-leak] states read per language: ${JSON.stringify(checked)}`);
  });
});
