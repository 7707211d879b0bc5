import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../packages/web/src/lib/i18n/en';
import { fr } from '../packages/web/src/lib/i18n/fr';
import type { TestArena } from '../packages/server/test/test-arena';
import { PHONE, acceptTerms, axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot, startArena } from './harness';

const PROMPT_WITH_DATA = 'Écris à ma mère, au 06 12 34 56 78, que son numéro de sécu 2 85 05 78 006 084 12 est bon.';

describe('the warning before sending personal data', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    [arena, browser] = await Promise.all([startArena(), launchBrowser()]);
    arena.fake.defaultBehaviour = { tokensPerSecond: 200, text: () => 'Une réponse.' };
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
  });

  /** Duels the server has started so far (each sent prompt starts one). */
  const duelsStarted = () => arena.fake.requests.length;

  it.each([
    ['fr-FR', fr],
    ['en-GB', en],
  ] as const)(
    'in %s: names a phone number and a NIR before sending, goes when edited away, and sends anyway on request',
    async (locale, messages) => {
      const { page, context, errors } = await newPage(browser, { locale, viewport: PHONE });
      await page.goto(arena.baseUrl);
      await acceptTerms(page);
      const prompt = page.getByTestId('prompt');
      await prompt.fill(PROMPT_WITH_DATA);

      // The warning appears as the visitor types, names both kinds in their language and marks both numbers.
      const warning = page.getByTestId('prompt-pii-warning');
      await warning.waitFor();
      expect(await warning.getAttribute('data-kinds')).toBe('phone identity_number');
      const text = await warning.innerText();
      expect(text).toContain(messages['privacy_warning.title']);
      expect(text).toContain(messages['privacy_warning.kind.phone']);
      expect(text).toContain(messages['privacy_warning.kind.identity_number']);
      expect(await warning.locator('mark').allInnerTexts()).toEqual(['06 12 34 56 78', '2 85 05 78 006 084 12']);
      expect(await hasHorizontalOverflow(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `arena-privacy-warning-${locale.slice(0, 2)}-phone`);

      // Enter does not send: the warning asks first, and nothing reached a model.
      const before = duelsStarted();
      await prompt.press('Enter');
      await expect.poll(async () => (await warning.getAttribute('class')) ?? '').toContain('held');
      expect(duelsStarted()).toBe(before);
      expect(await page.getByTestId('duel').count()).toBe(0);

      // « Edit » selects the first finding in the box; removing both numbers removes the warning.
      await page.getByTestId('prompt-pii-edit').click();
      const selected = await prompt.evaluate((box: HTMLTextAreaElement) => [
        document.activeElement === box,
        box.value.slice(box.selectionStart, box.selectionEnd),
      ]);
      expect(selected).toEqual([true, '06 12 34 56 78']);
      await prompt.fill('Écris à ma mère que son dossier est complet.');
      await warning.waitFor({ state: 'detached' });

      // Typed again, then sent anyway: the duel starts.
      await prompt.fill(PROMPT_WITH_DATA);
      await warning.waitFor();
      await page.getByTestId('prompt-pii-send-anyway').click();
      await page.getByTestId('duel').waitFor();
      await expect.poll(duelsStarted).toBeGreaterThan(before);
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
