import { type LeaderboardBody, flaggedVotesSchema } from '@agora/contract';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Messages } from '../packages/web/src/lib/i18n/fr';
import type { TestArena } from '../packages/server/test/test-arena';
import { DESKTOP, acceptTerms, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { CATALOGUES, LOCALES, VIEWPORTS, message } from './locales';

const TOKEN = 'honesty-e2e-admin-token-0123456789';
/** Short answers (two of 25 characters) for the visitor who reads, long ones (two of 620) for the one who does not. */
const SHORT = 'Une réponse courte.\n\nFin.';
const LONG = `${'Une longue réponse, phrase après phrase, à lire avant de voter. '.repeat(10)}Fin.`;
/** An average silent reader: 238 words a minute, about 19 characters a second (docs/arena.md#reading-time-too_fast). */
const READER_CHARS_PER_S = 19;
/** Votes a model needs counted for the board: more than the visitors who read give it in the first part. */
const MIN_VOTES = 12;

/**
 * Waits while another test run rebuilds the web app (e2e/global-setup.ts holds this lock while it
 * builds into the folder this arena serves): a page loaded meanwhile finds half a build.
 */
async function whileWebBuilds(): Promise<void> {
  const lock = fileURLToPath(new URL('../packages/web/.build-lock', import.meta.url));
  while (existsSync(lock)) await new Promise((resolve) => setTimeout(resolve, 500));
}

/** The reveal's energy comparison in this language, of these two models, either way round, or "about the same". */
function energyComparison(messages: Messages, [a, b]: string[]): RegExp {
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = (key: 'honesty.energy_ratio' | 'honesty.energy_same', first: string, second: string) =>
    escape(messages[key]).replace('\\{a\\}', escape(first)).replace('\\{b\\}', escape(second)).replace('\\{ratio\\}', '[0-9]+([.,][0-9])?');
  return new RegExp(
    `^(${[pattern('honesty.energy_ratio', a!, b!), pattern('honesty.energy_ratio', b!, a!), pattern('honesty.energy_same', a!, b!)].join('|')})$`,
  );
}

/**
 * Issue 32's honest counts: a visitor who reads and votes at a human pace has its vote counted and
 * is told so; one who votes the moment long answers end is thanked without being told it counts;
 * the reveal compares the two sides' energy and gives each an energy class; the leaderboard gives
 * the footer's vote count with how many it counts, and its empty state links to the arena.
 */
describe('honest counts and energy in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  const readDuels: string[] = [];
  const hastyDuels: string[] = [];
  beforeAll(async () => {
    [arena, browser] = await Promise.all([
      startArena({ AGORA_ADMIN_TOKEN: TOKEN, AGORA_INTEGRITY_MIN_VOTE_S: '1', AGORA_LEADERBOARD_MIN_VOTES: String(MIN_VOTES) }),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  /** Plays one duel in `locale` and votes a tie, after reading the answers at an average pace or at once. */
  async function playAndVote(page: Page, read: boolean): Promise<string> {
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: read ? SHORT : LONG };
    await whileWebBuilds();
    await page.getByTestId('prompt').fill(read ? 'Une question, lue avant de voter' : 'Une question, votée sans lire');
    await page.getByTestId('prompt').press('Enter');
    await page.getByTestId('vote-panel').waitFor();
    const duelId = (await page.getByTestId('duel').getAttribute('data-duel-id'))!;
    if (read) await page.waitForTimeout(((2 * SHORT.length) / READER_CHARS_PER_S) * 1000);
    await page.locator('[data-choice="tie"]').click();
    await page.getByTestId('vote-submit').click();
    await page.getByTestId('reveal').waitFor();
    return duelId;
  }

  it('tells a visitor who read that the vote counts, and thanks one who did not without a promise, in each language and width', async () => {
    for (const locale of LOCALES) {
      const messages = CATALOGUES[locale.slice(0, 2)]!;
      for (const [width, viewport] of VIEWPORTS) {
        for (const read of [true, false]) {
          const scheme = width === 'phone' ? 'dark' : 'light';
          const { page, context, errors } = await newPage(browser, { locale, viewport, colorScheme: scheme });
          await whileWebBuilds();
          await page.goto(arena.baseUrl);
          await acceptTerms(page);
          const duelId = await playAndVote(page, read);
          (read ? readDuels : hastyDuels).push(duelId);
          const thanks = page.getByTestId('thanks');
          expect((await thanks.innerText()).trim()).toBe(read ? messages['reveal.thanks'] : messages['honesty.thanks']);
          expect(await thanks.getAttribute('data-counted')).toBe(String(read));
          // The energy: which side used more, how many times, and a class for each answer in words, not colour alone.
          const names = [await page.getByTestId('sheet-link-a').innerText(), await page.getByTestId('sheet-link-b').innerText()];
          expect((await page.getByTestId('energy-ratio').innerText()).trim()).toMatch(energyComparison(messages, names));
          for (const side of ['a', 'b'] as const) {
            const [letter, ...words] = (await page.getByTestId(`energy-class-${side}`).innerText()).trim().split(/\s+/);
            expect(letter).toMatch(/^[A-E]$/);
            expect(words.join(' ')).toBe(message(messages, 'honesty.energy_class_value', { class: letter! }));
          }
          expect(await axeViolations(page)).toEqual([]);
          expect(await hasHorizontalOverflow(page)).toBe(false);
          await screenshot(page, `honesty-reveal-${read ? 'counted' : 'flagged'}-${locale.slice(0, 2)}-${width}-${scheme}`);
          expect(errors).toEqual([]);
          await context.close();
        }
      }
    }
    // The admin API: none of the visitors who read is flagged, every one who did not is, by too_fast alone.
    const answer = await arena.client.request('GET', '/api/v1/admin/votes/flagged?limit=1000', undefined, {
      authorization: `Bearer ${TOKEN}`,
    });
    const flagged = new Map(flaggedVotesSchema.parse(answer.json).votes.map((vote) => [vote.duel_id, vote.flags]));
    console.info(
      `[e2e/honesty] visitors who read: ${readDuels.filter((id) => flagged.has(id)).length} of ${readDuels.length} flagged; ` +
        `visitors who voted at once: ${hastyDuels.filter((id) => flagged.has(id)).length} of ${hastyDuels.length} flagged`,
    );
    expect(readDuels.filter((id) => flagged.has(id))).toEqual([]);
    expect(hastyDuels.map((id) => flagged.get(id))).toEqual(hastyDuels.map(() => ['too_fast']));
  }, 300_000);

  it('gives the footer’s vote count on the leaderboard with how many it counts, links its empty state to the arena, and classes each model', async () => {
    await arena.arena.leaderboards.refresh();
    // The footer's counter is refreshed every 30 s: the pages read it once it has every vote.
    const total = readDuels.length + hastyDuels.length;
    await expect
      .poll(async () => ((await arena.client.request('GET', '/api/v1/stats')).json as { votes: number }).votes, { timeout: 40_000 })
      .toBe(total);
    for (const locale of LOCALES) {
      const messages = CATALOGUES[locale.slice(0, 2)]!;
      for (const [width, viewport] of VIEWPORTS) {
        const { page, context, errors } = await newPage(browser, { locale, viewport });
        await whileWebBuilds();
        await page.goto(`${arena.baseUrl}/leaderboard`);
        const empty = page.getByTestId('leaderboard-empty');
        await empty.waitFor();
        const counted = message(messages, 'honesty.votes_needed', { n: total, counted: readDuels.length, min: MIN_VOTES });
        await expect
          .poll(async () => (await empty.innerText()).replace(/\s+/g, ' ').trim())
          .toBe(`${messages['honesty.empty']} ${messages['honesty.empty_link']} ${counted}`);
        // The footer says the same number of votes.
        expect(await page.getByTestId('vote-counter').innerText()).toContain(String(total));
        expect(await axeViolations(page)).toEqual([]);
        await screenshot(page, `honesty-leaderboard-empty-${locale.slice(0, 2)}-${width}`);
        if (locale === 'fr-FR' && width === 'desktop') {
          await page.getByTestId('leaderboard-empty-arena').click();
          await page.getByTestId('prompt').waitFor();
        }
        expect(errors).toEqual([]);
        await context.close();
      }
    }
  }, 120_000);

  it('shows, once enough votes count, the board with each model’s energy class and the count of votes it leaves out', async () => {
    const { page, context } = await newPage(browser, { locale: 'fr-FR', viewport: DESKTOP });
    await whileWebBuilds();
    await page.goto(arena.baseUrl);
    await acceptTerms(page);
    while (readDuels.length < 2 * MIN_VOTES) {
      readDuels.push(await playAndVote(page, true));
      await page.getByTestId('new-duel').click();
    }
    await context.close();
    await arena.arena.leaderboards.refresh();
    const board = (await arena.client.request('GET', '/api/v1/leaderboard')).json as LeaderboardBody;
    const classed = board.models.filter((row) => row.energy_class);
    expect(classed.length).toBeGreaterThan(0);
    const total = readDuels.length + hastyDuels.length;
    await expect
      .poll(async () => ((await arena.client.request('GET', '/api/v1/stats')).json as { votes: number }).votes, { timeout: 40_000 })
      .toBe(total);
    for (const locale of LOCALES) {
      const messages = CATALOGUES[locale.slice(0, 2)]!;
      for (const [width, viewport] of VIEWPORTS) {
        const { page: boardPage, context: boardContext, errors } = await newPage(browser, { locale, viewport });
        await whileWebBuilds();
        await boardPage.goto(`${arena.baseUrl}/leaderboard`);
        const meta = boardPage.getByTestId('leaderboard-meta');
        await meta.waitFor();
        expect((await meta.innerText()).replace(/\s+/g, ' ')).toContain(
          `${message(messages, 'honesty.votes_total', { n: total })} ${message(messages, 'honesty.votes_counted', { n: board.n_votes })}`,
        );
        for (const row of classed)
          expect((await boardPage.getByTestId(`energy-class-${row.model}`).innerText()).trim()).toBe(row.energy_class);
        expect(await axeViolations(boardPage)).toEqual([]);
        await screenshot(boardPage, `honesty-leaderboard-classes-${locale.slice(0, 2)}-${width}`);
        await boardPage.goto(`${arena.baseUrl}/models/${classed[0]!.model}`);
        const sheetClass = boardPage.getByTestId('sheet-energy-class');
        await sheetClass.waitFor();
        expect((await sheetClass.innerText()).replace(/\s+/g, ' ').trim()).toBe(
          `${classed[0]!.energy_class} ${message(messages, 'honesty.energy_class_value', { class: classed[0]!.energy_class! })}`,
        );
        await screenshot(boardPage, `honesty-sheet-class-${locale.slice(0, 2)}-${width}`);
        expect(errors).toEqual([]);
        await boardContext.close();
      }
    }
  }, 240_000);
});
