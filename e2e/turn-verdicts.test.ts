import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestArena } from '../packages/server/test/test-arena';
import { da } from '../packages/web/src/lib/i18n/turn-verdicts/da';
import { en } from '../packages/web/src/lib/i18n/turn-verdicts/en';
import { fr } from '../packages/web/src/lib/i18n/turn-verdicts/fr';
import { lt } from '../packages/web/src/lib/i18n/turn-verdicts/lt';
import { sv } from '../packages/web/src/lib/i18n/turn-verdicts/sv';
import { acceptTerms, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';
import { leaksOn } from './language-leak';
import { LOCALES, VIEWPORTS } from './locales';

type VerdictMessages = typeof fr;
const AREA: Record<string, VerdictMessages> = { fr, en, da, sv, lt };
const CHOICES = ['a_better', 'b_better', 'both_good', 'both_bad'] as const;

/** The verdict control of a turn says its legend and four choices in the page's language. */
async function expectControlIn(page: Page, turn: number, messages: VerdictMessages): Promise<void> {
  const text = await page.getByTestId(`verdict-${turn}`).innerText();
  expect(text).toContain(messages['verdict.legend']);
  for (const choice of CHOICES) {
    expect(text).toContain(messages[`verdict.${choice}`]);
    // Each choice is a radio named by its label (what a screen reader says).
    const radio = page.getByRole('radio', { name: messages[`verdict.${choice}`] }).nth(turn - 1);
    expect(await radio.getAttribute('value')).toBe(choice);
  }
}

async function problemsOf(page: Page, name: string, language: string): Promise<string[]> {
  const problems: string[] = [];
  problems.push(...(await axeViolations(page)).map((violation) => `${name} axe: ${violation}`));
  problems.push(...(await leaksOn(page, language as 'fr')).map((leak) => `${name} leak: ${leak}`));
  if (await hasHorizontalOverflow(page)) problems.push(`${name}: sideways scroll`);
  await screenshot(page, name);
  return problems;
}

/**
 * Per-turn verdicts in a real browser (issue 34, item 1): a two-turn duel, a verdict after turn 1
 * (by keyboard: Space, then an arrow changes it) and after turn 2 (a click), then the vote, which
 * alone reveals the models; the verdicts reach the server as given. In each language at phone and
 * desktop width: axe clean, no language leak, no sideways scroll.
 */
describe('turn verdicts in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena(), launchBrowser()]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Une réponse courte.\n\nFin.' };
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  it.each(LOCALES)(
    'takes a verdict on each turn before the vote (%s)',
    async (locale) => {
      const language = locale.slice(0, 2);
      const messages = AREA[language]!;
      const problems: string[] = [];
      for (const [width, viewport] of VIEWPORTS) {
        const name = `turn-verdicts-${language}-${width}`;
        const { page, context, errors } = await newPage(browser, { locale, viewport });
        await page.goto(arena.baseUrl);
        await acceptTerms(page);
        await page.getByTestId('prompt').fill(`Une première question (${locale}, ${width})`);
        await page.getByTestId('prompt').press('Enter');
        await page.getByTestId('verdict-1').waitFor();
        const duelId = (await page.getByTestId('duel').getAttribute('data-duel-id'))!;
        await expectControlIn(page, 1, messages);
        // Keyboard: Space gives the focused choice, an arrow moves to (and gives) the next one.
        await page.getByTestId('verdict-1-a_better').focus();
        await page.keyboard.press('Space');
        await expect
          .poll(async () => (await page.getByTestId('verdict-1-status').innerText()).trim())
          .toBe(messages['verdict.saved'].replace('{turn}', '1'));
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => page.getByTestId('verdict-1-b_better').isChecked()).toBe(true);
        problems.push(...(await problemsOf(page, `${name}-turn-1`, language)));

        await page.getByTestId('follow-up').fill('Et une seconde ?');
        await page.getByTestId('follow-up').press('Enter');
        await page.getByTestId('verdict-2').waitFor();
        await expectControlIn(page, 2, messages);
        await page.getByTestId('verdict-2-both_bad').click();
        await expect
          .poll(async () => (await page.evaluate(async (id) => (await fetch(`/api/v1/duels/${id}`)).json(), duelId)).verdicts)
          .toEqual([
            { turn: 1, verdict: 'b_better' },
            { turn: 2, verdict: 'both_bad' },
          ]);
        problems.push(...(await problemsOf(page, `${name}-turn-2`, language)));
        // The verdicts reveal nothing: the vote is still needed.
        expect(await page.getByTestId('reveal').count()).toBe(0);
        await page.locator('[data-choice="b"]').click();
        await page.getByTestId('vote-submit').click();
        await page.getByTestId('reveal').waitFor();
        // Once voted, the verdicts are closed and their controls gone.
        expect(await page.locator('[data-testid^="verdict-"]').count()).toBe(0);
        problems.push(...(await problemsOf(page, `${name}-revealed`, language)));
        expect(errors).toEqual([]);
        await context.close();
      }
      expect(problems).toEqual([]);
    },
    120_000,
  );
});
