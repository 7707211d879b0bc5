import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../packages/server/src/config/catalogue';
import { TEST_MODELS, type TestArena, testCatalogueYaml } from '../packages/server/test/test-arena';
import { DESKTOP, PHONE, acceptTerms, axeViolations, launchBrowser, newPage, screenshot, startArena } from './harness';

const ANSWER = (prompt: string) =>
  `Réponse à « ${prompt.slice(0, 30)} ».\n\nUn paragraphe de réponse, assez long pour s’afficher en plusieurs morceaux.\n\nFin.`;
const upstreamOf = (id: string) => TEST_MODELS.find((model) => model.id === id)!.upstream;
const LOCALES = ['fr-FR', 'en-GB', 'da-DK', 'sv-SE', 'lt-LT'] as const;
const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

async function send(page: Page, prompt: string): Promise<void> {
  await page.getByTestId('prompt').fill(prompt);
  await page.getByTestId('prompt').press('Enter');
}

/**
 * Every way a duel can go wrong shows its own state, in the visitor's language, with the right action,
 * and never loses the prompt; the turn limit ends in a vote; a failed follow-up leaves a votable duel;
 * a reload restores the duel and its stream.
 */
describe('the arena’s states in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena({ AGORA_MAX_TURNS: '3', AGORA_MAX_PROMPT_CHARS: '300' }), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });
  beforeEach(() => {
    arena.fake.reset();
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: ANSWER };
  });

  it('a model failure: its own card in each language, the prompt kept, and "try again" sends it again', async () => {
    for (const locale of LOCALES) {
      for (const [width, viewport] of VIEWPORTS) {
        // Phones in the dark theme, desktops in the light one: both themes of every state are photographed.
        const scheme = width === 'phone' ? 'dark' : 'light';
        const { page, context, errors } = await newPage(browser, { locale, viewport, colorScheme: scheme });
        arena.fake.defaultBehaviour = { httpStatus: 500, text: ANSWER };
        await page.goto(arena.baseUrl);
        await acceptTerms(page);
        await send(page, `Une question qui échoue (${locale})`);
        const card = page.getByTestId('error-card');
        await card.waitFor();
        expect(await card.getAttribute('data-cause')).toBe('model');
        expect(await page.getByTestId('duel').innerText()).toContain(`Une question qui échoue (${locale})`);
        expect(await page.getByTestId('pane-a').count()).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `arena-error-model-${locale.slice(0, 2)}-${width}-${scheme}`);
        arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: ANSWER };
        await card.getByTestId('retry').click();
        await page.getByTestId('vote-panel').waitFor();
        expect(await page.getByTestId('turn-1').innerText()).toContain(`Une question qui échoue (${locale})`);
        expect(errors).toEqual([]);
        await context.close();
      }
    }
    // Ten pages (five languages, two widths), each failing, checked with axe, photographed and retried.
  }, 90_000);

  it('a network failure: retry the same request once the network is back; "edit" gives the prompt back', async () => {
    const { page, context } = await newPage(browser, { locale: 'en-GB' });
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await page.route('**/api/v1/duels', (route) => route.abort('internetdisconnected'));
    await send(page, 'Lost in the network');
    const card = page.getByTestId('error-card');
    await card.waitFor();
    expect(await card.getAttribute('data-cause')).toBe('network');
    expect(await page.getByTestId('duel').innerText()).toContain('Lost in the network');
    await screenshot(page, 'arena-error-network-en-desktop');
    await card.getByTestId('edit-prompt').click();
    expect(await page.getByTestId('prompt').inputValue()).toBe('Lost in the network');
    await page.getByTestId('prompt').press('Enter');
    await card.waitFor();
    await page.unroute('**/api/v1/duels');
    await card.getByTestId('retry').click();
    await page.getByTestId('vote-panel').waitFor();
    await context.close();
  });

  it('a link naming unknown models says so before anything is sent, and draws at random', async () => {
    const { page, context, errors } = await newPage(browser, { locale: 'fr-FR' });
    await page.goto(`${arena.baseUrl}/?vs=nope-1,nope-2`);
    await acceptTerms(page);
    await expect.poll(() => page.getByTestId('vs-unknown').innerText()).toContain('nope-1, nope-2');
    expect(await page.locator('input[name="mode"][value="random"]').isChecked()).toBe(true);
    await screenshot(page, 'arena-vs-unknown-fr-desktop');
    await send(page, 'Au hasard alors');
    await page.getByTestId('vote-panel').waitFor();
    // One known and one unknown: the known one stays chosen.
    await page.goto(`${arena.baseUrl}/?vs=zephyrine-405b,nope-3`);
    await expect.poll(() => page.getByTestId('vs-unknown').innerText()).toContain('nope-3');
    expect(await page.getByTestId('vs-banner').innerText()).toContain('Zephyrine Ultra');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a prompt over the limit is refused before it is sent, with the limit, and kept', async () => {
    const { page, context } = await newPage(browser, { locale: 'en-GB' });
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await page.getByTestId('prompt').fill('x'.repeat(301));
    await expect.poll(() => page.getByTestId('prompt-over').innerText()).toMatch(/1 characters? too many \(limit: 300\)/);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await page.getByTestId('prompt').press('Enter');
    expect(await page.getByTestId('prompt').inputValue()).toHaveLength(301);
    expect(await page.getByTestId('duel').count()).toBe(0);
    await screenshot(page, 'arena-prompt-too-long-en-desktop');
    await context.close();
  });

  it('counts the turns left, closes the follow-up box at the limit, and the duel ends in a vote', async () => {
    const { page, context, errors } = await newPage(browser, { locale: 'fr-FR' });
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await send(page, 'Premier tour');
    await page.getByTestId('vote-panel').waitFor();
    expect(await page.getByTestId('follow-up-hint').innerText()).toBe('Échanges restants : 2 sur 3');
    await page.getByTestId('follow-up').fill('Deuxième tour');
    await page.getByTestId('follow-up').press('Enter');
    await expect.poll(() => page.getByTestId('follow-up-hint').innerText()).toBe('Échanges restants : 1 sur 3');
    await page.getByTestId('follow-up').fill('Troisième tour');
    await page.getByTestId('follow-up').press('Enter');
    await page.getByTestId('turn-limit').waitFor();
    expect(await page.getByTestId('follow-up').count()).toBe(0);
    await screenshot(page, 'arena-turn-limit-fr-desktop');
    await page.locator('[data-choice="b"]').click();
    await page.getByTestId('vote-submit').click();
    await page.getByTestId('reveal').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a failed follow-up shows neither answer and leaves the earlier turn votable', async () => {
    for (const [width, viewport] of VIEWPORTS) {
      arena.fake.reset();
      const scheme = width === 'phone' ? 'dark' : 'light';
      const { page, context, errors } = await newPage(browser, { locale: 'fr-FR', viewport, colorScheme: scheme });
      await page.goto(`${arena.baseUrl}/?vs=zephyrine-405b,miravel-24b`);
      await acceptTerms(page);
      await send(page, 'Un premier échange');
      await page.getByTestId('vote-panel').waitFor();
      arena.fake.behave(upstreamOf('miravel-24b'), { tokensPerSecond: 0, cutAfterChunks: 1, text: ANSWER });
      await page.getByTestId('follow-up').fill('Une relance qui échoue');
      await page.getByTestId('follow-up').press('Enter');
      await page.getByTestId('follow-up-failed').waitFor();
      expect(await page.getByTestId('turn-2').getAttribute('data-status')).toBe('failed');
      expect(await page.getByTestId('turn-2').locator('[data-testid^="pane-"]').count()).toBe(0);
      expect(await page.getByTestId('turn-withheld').count()).toBe(1);
      // The message is back in the box, to send again; the vote panel is there.
      expect(await page.getByTestId('follow-up').inputValue()).toBe('Une relance qui échoue');
      await page.getByTestId('vote-panel').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `arena-follow-up-failed-fr-${width}-${scheme}`);
      await page.locator('[data-choice="a"]').click();
      await page.getByTestId('vote-submit').click();
      await page.getByTestId('reveal').waitFor();
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it('a reload mid-stream restores the duel at its address and the stream goes on to the end', async () => {
    arena.fake.defaultBehaviour = { tokensPerSecond: 25, text: ANSWER };
    const { page, context, errors } = await newPage(browser, { locale: 'fr-FR' });
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await send(page, 'Une réponse lente');
    await page.waitForFunction(() => (document.querySelector('[data-testid="answer-a"]')?.textContent ?? '').length > 5);
    const address = new URL(page.url());
    const id = address.searchParams.get('duel');
    expect(id).toMatch(/^[A-Za-z0-9_-]{10,64}$/);
    await page.reload();
    await page.getByTestId('turn-1').waitFor();
    expect(await page.getByTestId('turn-1').innerText()).toContain('Une réponse lente');
    await page.getByTestId('vote-panel').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('answer-a').innerText()).toContain('Fin.');
    expect(await page.getByTestId('answer-b').innerText()).toContain('Fin.');
    // New duel asks first on an unvoted duel; staying keeps it.
    await page.getByTestId('new-duel').click();
    await page.getByTestId('leave-confirm').waitFor();
    await screenshot(page, 'arena-leave-confirm-fr-desktop');
    await page.getByRole('button', { name: 'Rester et voter' }).click();
    expect(await page.getByTestId('vote-panel').count()).toBe(1);
    await page.getByTestId('new-duel').click();
    await page.getByTestId('leave-confirm-yes').click();
    await page.getByTestId('prompt').waitFor();
    expect(new URL(page.url()).searchParams.get('duel')).toBeNull();
    // Another browser cannot open it.
    const other = await newPage(browser, { locale: 'fr-FR' });
    await other.page.goto(`${arena.baseUrl}/?duel=${id}`);
    const card = other.page.getByTestId('error-card');
    await card.waitFor();
    expect(await card.getAttribute('data-cause')).toBe('duel_gone');
    await screenshot(other.page, 'arena-duel-gone-fr-desktop');
    await other.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a voted duel reopens on its reveal, with the visitor’s own vote', async () => {
    const { page, context } = await newPage(browser, { locale: 'en-GB' });
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await send(page, 'Reopen me');
    await page.getByTestId('vote-panel').waitFor();
    await page.locator('[data-choice="b"]').click();
    await page.locator('[data-testid="vote-panel"] fieldset').nth(1).locator('[data-tag="complete"]').click();
    await page.getByTestId('vote-submit').click();
    await page.getByTestId('reveal').waitFor();
    await page.reload();
    await page.getByTestId('reveal').waitFor();
    expect(await page.getByTestId('your-tags-b').innerText()).toContain('Complete');
    expect(await page.getByTestId('see-ranking').getAttribute('href')).toBe('/leaderboard');
    await context.close();
  });
});

describe('an arena with no drawable model', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([
      startArena({}, (baseUrl) =>
        parseCatalogue(
          testCatalogueYaml(baseUrl).replaceAll('    provider:\n', '    provider:\n      api_key_env: MISSING_KEY\n'),
          'models.yaml',
          {},
        ),
      ),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it('says what the operator must do before any prompt, in each language', async () => {
    for (const locale of LOCALES) {
      const { page, context } = await newPage(browser, { locale });
      await page.goto(arena.baseUrl);
      await acceptTerms(page);
      const notice = page.getByTestId('setup-notice');
      await notice.waitFor();
      expect(await notice.innerText()).toContain('MISSING_KEY');
      expect(await notice.innerText()).toContain('agora models pull');
      // Typing is allowed (the text is kept), sending is not: nothing could answer it.
      await page.getByTestId('prompt').fill('Bonjour');
      expect(await page.locator('form.prompt button[type="submit"]').isDisabled()).toBe(true);
      await screenshot(page, `arena-no-models-${locale.slice(0, 2)}-desktop`);
      await context.close();
    }
  });
});
