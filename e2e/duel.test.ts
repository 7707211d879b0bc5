import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TestArena } from '../packages/server/test/test-arena';
import { TEST_MODELS } from '../packages/server/test/test-arena';
import { DESKTOP, PHONE, acceptTerms, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena, tabTo } from './harness';

const ANSWER = (prompt: string) =>
  `Voici une réponse à « ${prompt.slice(0, 40)} ».\n\nUn premier paragraphe **important** avec du texte qui prend un peu de temps à arriver, mot après mot, pour que les deux volets défilent en même temps.\n\n\`\`\`python\nprint("bonjour")\n\`\`\`\n\n- un point\n- un autre point\n\nFin.`;

describe('arena in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });
  beforeEach(() => {
    arena.fake.reset();
    arena.fake.defaultBehaviour = { tokensPerSecond: 40, text: ANSWER };
  });

  it('runs a full duel: both panes stream, like with tags, follow-up, vote, reveal with models and energy', async () => {
    const { page, context, errors } = await newPage(browser);
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await page.getByTestId('prompt').fill('Explique la photosynthèse.');
    await page.getByTestId('prompt').press('Enter');

    // Both panes show streamed text while the duel is still streaming.
    await page.waitForFunction(() => {
      const a = document.querySelector('[data-testid="answer-a"]')?.textContent ?? '';
      const b = document.querySelector('[data-testid="answer-b"]')?.textContent ?? '';
      return a.length > 10 && b.length > 10 && document.querySelector('[data-testid="duel"]')?.getAttribute('aria-busy') === 'true';
    });
    // A finished paragraph is rendered once: the same DOM node survives the rest of the stream.
    await page.waitForFunction(() => document.querySelector('[data-testid="answer-a"] .block') !== null);
    await page.evaluate(
      () => ((document.querySelector('[data-testid="answer-a"] .block') as HTMLElement & { __first?: boolean }).__first = true),
    );
    await page.getByTestId('vote-panel').waitFor();
    expect(
      await page.evaluate(() => (document.querySelector('[data-testid="answer-a"] .block') as HTMLElement & { __first?: boolean }).__first),
    ).toBe(true);
    expect(await page.locator('[data-testid="answer-a"] .block').count()).toBeGreaterThan(3);
    expect(await page.locator('[data-testid="answer-a"] pre code').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="answer-a"] .copy').count()).toBeGreaterThan(0);
    const duelId = await page.getByTestId('duel').getAttribute('data-duel-id');
    expect(duelId).toBeTruthy();
    expect(await page.getByTestId('duel').getAttribute('aria-live')).toBe('polite');
    await screenshot(page, 'arena-streamed-desktop');

    // Like answer A with two tags and a comment.
    const reactions = page.getByTestId('reactions-a-1');
    await reactions.getByTestId('like-a').click();
    await reactions.locator('[data-tag="useful"]').click();
    await reactions.locator('[data-tag="clear_formatting"]').click();
    await reactions.locator('input[type="text"]').fill('claire');
    await reactions.locator('button[type="submit"]').click();
    await expect
      .poll(async () => {
        const transcript = await page.evaluate(async (id) => (await fetch(`/api/v1/duels/${id}`)).json(), duelId);
        return transcript.reactions;
      })
      .toEqual([{ side: 'a', turn: 1, value: 'like', tags: ['useful', 'clear_formatting'], comment: 'claire' }]);

    // Follow up: a second turn in both panes.
    await page.getByTestId('follow-up').fill('Et en une phrase ?');
    await page.getByTestId('follow-up').press('Enter');
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="answer-b"]').length === 2 && document.querySelector('[data-testid="vote-panel"]') !== null,
    );

    // Vote B with a tag, then the reveal.
    await page.locator('[data-choice="b"]').click();
    await page.locator('[data-testid="vote-panel"] fieldset').nth(1).locator('[data-tag="complete"]').click();
    await page.getByTestId('vote-submit').click();
    await page.getByTestId('reveal').waitFor();
    const names: string[] = TEST_MODELS.map((model) => model.name);
    for (const side of ['a', 'b']) {
      const card = page.getByTestId(`reveal-${side}`);
      const text = await card.innerText();
      expect(names.some((name) => text.includes(name))).toBe(true);
      expect(await page.getByTestId(`energy-${side}`).innerText()).toMatch(/Wh/);
    }
    expect(await page.getByTestId('reveal-b').innerText()).toMatch(/Votre choix/);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, 'arena-reveal-desktop');
    await page.setViewportSize(PHONE);
    expect(await hasHorizontalOverflow(page)).toBe(false);
    await screenshot(page, 'arena-reveal-phone');
    await page.setViewportSize(DESKTOP);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the error card when one side fails: no pane alone, no vote', async () => {
    arena.fake.behave('quorvex/kestrix-nano', { httpStatus: 500 });
    const { page, context } = await newPage(browser);
    await page.goto(`${arena.baseUrl}/?vs=zephyrine-405b,kestrix-8b`);
    await acceptTerms(page);
    // The banner names the chosen ids at once and their display names once the catalogue has loaded.
    await expect.poll(() => page.getByTestId('vs-banner').innerText()).toContain('Zephyrine Ultra');
    await page.getByTestId('prompt').fill('Bonjour ?');
    await page.getByTestId('prompt').press('Enter');
    await page.getByTestId('error-card').waitFor();
    expect(await page.locator('[data-testid^="pane-"]').count()).toBe(0);
    expect(await page.getByTestId('vote-panel').count()).toBe(0);
    expect(await page.locator('[data-choice]').count()).toBe(0);
    // The server refuses a vote on it as well.
    const duelId = await page.getByTestId('duel').getAttribute('data-duel-id');
    const status = await page.evaluate(
      async (id) =>
        (
          await fetch(`/api/v1/duels/${id}/vote`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"choice":"a"}',
          })
        ).status,
      duelId,
    );
    expect(status).toBe(409);
    await screenshot(page, 'arena-error-desktop');
    // Retry starts a new duel with the same prompt; now both sides answer.
    arena.fake.reset();
    arena.fake.defaultBehaviour = { tokensPerSecond: 400, text: ANSWER };
    await page.getByTestId('retry').click();
    await page.getByTestId('vote-panel').waitFor();
    expect(await page.locator('[data-testid^="pane-"]').count()).toBe(2);
    await context.close();
  });

  it('renders hostile model output inert, inside its pane', async () => {
    const hostile = [
      '<script>window.__pwned = "script"</script>',
      '<img src="x" onerror="window.__pwned = \'img\'">',
      "[click me](javascript:window.__pwned='link') and <a href=\"javascript:window.__pwned='a'\">raw</a> and [ok](https://example.org)",
      '<iframe src="javascript:window.__pwned=\'iframe\'"></iframe><svg onload="window.__pwned=\'svg\'"></svg>',
      `${'W'.repeat(6000)}`,
      `${'> '.repeat(300)}deep quote`,
      `${Array.from({ length: 120 }, (_, i) => `${'  '.repeat(i)}- level ${i}`).join('\n')}`,
      `${'*'.repeat(200)}emphasis${'*'.repeat(200)}`,
      '| a | b |\n|---|---|\n| ' + 'x'.repeat(3000) + ' | y |',
    ].join('\n\n');
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: hostile };
    const { page, context, errors } = await newPage(browser);
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    await page.getByTestId('prompt').fill('Sois méchant.');
    await page.getByTestId('prompt').press('Enter');
    await page.getByTestId('vote-panel').waitFor();
    const report = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: string }).__pwned,
      scripts: document.querySelectorAll('.md script, .md iframe, .md svg, .md img, .md [onerror], .md [onload]').length,
      jsLinks: [...document.querySelectorAll('.md a')].filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '')).length,
      safeLinks: [...document.querySelectorAll('.md a[href^="https://example.org"]')].map((a) => a.getAttribute('rel')),
      shownAsText: document.querySelector('[data-testid="answer-a"]')?.textContent?.includes('<script>') ?? false,
    }));
    expect(report.pwned).toBeUndefined();
    expect(report.scripts).toBe(0);
    expect(report.jsLinks).toBe(0);
    expect(report.safeLinks[0]).toContain('noopener');
    expect(report.shownAsText).toBe(true);
    expect(errors).toEqual([]);
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      expect(await hasHorizontalOverflow(page)).toBe(false);
      const paneWidth = await page.getByTestId('pane-a').evaluate((pane) => pane.getBoundingClientRect().right);
      expect(paneWidth).toBeLessThanOrEqual(viewport.width);
    }
    await screenshot(page, 'arena-hostile-phone', false);
    await context.close();
  });

  it('does a whole duel with the keyboard alone', async () => {
    arena.fake.defaultBehaviour = { tokensPerSecond: 400, text: ANSWER };
    const { page, context } = await newPage(browser);
    await page.goto(arena.baseUrl);
    // The terms dialog holds the focus until accepted: tick the box, then accept, by keyboard.
    await page.getByTestId('terms').waitFor();
    await tabTo(page, '[data-testid="terms-agree"]');
    await page.keyboard.press('Space');
    await tabTo(page, '[data-testid="terms-accept"]');
    await page.keyboard.press('Enter');
    await tabTo(page, '#prompt');
    await page.keyboard.type('Une question au clavier');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('sur deux lignes');
    expect(await page.getByTestId('prompt').inputValue()).toBe('Une question au clavier\nsur deux lignes');
    await page.keyboard.press('Enter');
    await page.getByTestId('vote-panel').waitFor();
    await tabTo(page, '[data-choice="tie"]');
    await page.keyboard.press('Space');
    await tabTo(page, '[data-testid="vote-submit"]');
    await page.keyboard.press('Enter');
    await page.getByTestId('reveal').waitFor();
    // Focus moved to the reveal's heading.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('reveal-title');
    await tabTo(page, '[data-testid="new-duel"]');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('prompt');
    await context.close();
  });
});

describe('a visitor past the prompt limit', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena({ AGORA_LIMIT_PROMPTS_PER_HOUR: '1' }), launchBrowser()]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: ANSWER };
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it('is told to wait, in their language, instead of a generic error', async () => {
    for (const locale of ['fr-FR', 'en-GB']) {
      const { page, context, errors } = await newPage(browser, { locale });
      await page.goto(arena.baseUrl);
      await acceptTerms(page);
      await page.getByTestId('prompt').fill('Première question');
      await page.getByTestId('prompt').press('Enter');
      await page.getByTestId('vote-panel').waitFor();
      // A second duel in another tab of the same browser: the hour's one prompt is spent.
      const second = await context.newPage();
      await second.goto(arena.baseUrl);
      await second.getByTestId('prompt').fill('Deuxième question');
      await second.getByTestId('prompt').press('Enter');
      await second.getByTestId('error-card').waitFor();
      const text = await second.getByTestId('error-card').innerText();
      expect(text).toMatch(locale === 'fr-FR' ? /Réessayez dans \d+ min/ : /Try again in \d+ min/);
      await screenshot(second, `arena-rate-limited-${locale.slice(0, 2)}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});

describe('an arena that asks for a proof of work before each duel', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena({ AGORA_PROOF_OF_WORK: '400' }), launchBrowser()]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: ANSWER };
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it('solves it in the browser, ahead, for each duel, and a request without one is refused', async () => {
    const { page, errors } = await newPage(browser, { locale: 'fr-FR' });
    const challenges: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/challenge')) challenges.push(request.url());
    });
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    for (const prompt of ['Première question', 'Deuxième question']) {
      await page.getByTestId('prompt').fill(prompt);
      await page.getByTestId('prompt').press('Enter');
      await page.getByTestId('vote-panel').waitFor();
      await page.locator('[data-choice="a"]').click();
      await page.getByTestId('vote-submit').click();
      await page.getByTestId('reveal').waitFor();
      await page.getByTestId('new-duel').click();
    }
    // One challenge per duel, and the next one prepared.
    expect(challenges.length).toBe(3);
    const bare = await page.evaluate(async () => {
      const response = await fetch('/api/v1/duels', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"prompt":"x"}',
      });
      return { status: response.status, body: await response.json() };
    });
    expect(bare.status).toBe(403);
    expect(bare.body.error.code).toBe('proof_required');
    expect(errors).toEqual([]);
  });
});
