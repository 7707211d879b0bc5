import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../packages/server/src/config/catalogue';
import type { TestArena } from '../packages/server/test/test-arena';
import { localModelYaml, writeTinyGguf } from '../packages/server/test/local-models/tiny-gguf';
import { PHONE, acceptTerms, launchBrowser, newPage, screenshot, startArena } from './harness';

/** The arena with no key at all: two tiny GGUF models run in the server by llama.cpp. */
const folder = mkdtempSync(join(tmpdir(), 'agora-e2e-local-'));

const entry = (id: string, name: string, file: string) =>
  localModelYaml(id, join(folder, file), { name, arch: 'unknown', temperature: 0.8, maxTokens: 80 });

describe('local models in a real browser', () => {
  let arena: TestArena;
  let browser: Browser;
  beforeAll(async () => {
    writeTinyGguf(join(folder, 'tiny-a.gguf'), { seed: 11, name: 'Tiny A' });
    writeTinyGguf(join(folder, 'tiny-b.gguf'), { seed: 12, name: 'Tiny B' });
    [arena, browser] = await Promise.all([
      startArena({}, () =>
        parseCatalogue(
          `models:\n${entry('tiny-a', 'Tiny A', 'tiny-a.gguf')}${entry('tiny-b', 'Tiny B', 'tiny-b.gguf')}`,
          join(folder, 'models.yaml'),
          {},
        ),
      ),
      launchBrowser(),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await arena?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs a whole duel on two local models: no setup notice, both answers stream, the reveal says where they ran', async () => {
    for (const [viewport, suffix] of [
      [undefined, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      const { page, context, errors } = await newPage(browser, viewport ? { viewport, locale: 'en-GB' } : {});
      await page.goto(arena.baseUrl);
      await acceptTerms(page);
      expect(await page.getByTestId('setup-notice').count()).toBe(0);
      await page.getByTestId('prompt').fill('Bonjour ! Peux-tu te présenter ?');
      await page.getByTestId('prompt').press('Enter');
      await page.getByTestId('vote-panel').waitFor({ timeout: 20_000 });
      for (const side of ['a', 'b']) expect((await page.getByTestId(`answer-${side}`).innerText()).trim().length).toBeGreaterThan(10);
      await screenshot(page, `local-models-answers-${suffix}`);
      await page.locator('[data-choice="tie"]').click();
      await page.getByTestId('vote-submit').click();
      await page.getByTestId('reveal').waitFor();
      for (const side of ['a', 'b']) expect(await page.getByTestId(`runs-locally-${side}`).innerText()).toMatch(/llama\.cpp.*F32/s);
      await screenshot(page, `local-models-reveal-${suffix}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
