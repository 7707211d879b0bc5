import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { type TestArena, type TestArenaOptions, startTestArena } from '../packages/server/test/test-arena';
import { DIALECTS } from '../packages/server/test/test-db';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/** Debian's Chromium, with the flags that work in containers (see STACK.md). */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install Debian's package (apt-get install -y chromium; .ci/run does it) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A real arena (SQLite, fake upstream) serving the built SPA at `/`; `catalogue` replaces the test models. */
export function startArena(environment: Record<string, string> = {}, catalogue?: TestArenaOptions['catalogue']): Promise<TestArena> {
  return startTestArena(DIALECTS[0]!, {
    catalogue,
    // The tests vote as soon as the answers end, from one address: reading time and limits are tested elsewhere.
    environment: {
      AGORA_LEADERBOARD_MIN_VOTES: '1',
      AGORA_LEADERBOARD_EVERY_VOTES: '1',
      AGORA_INTEGRITY_MIN_VOTE_S: '0',
      ...environment,
    },
  });
}

export async function newPage(
  browser: Browser,
  options: { locale?: string; viewport?: { width: number; height: number }; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    locale: options.locale ?? 'fr-FR',
    viewport: options.viewport ?? DESKTOP,
    colorScheme: options.colorScheme ?? 'light',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  // A resource or script the Content-Security-Policy blocked: the UI would be missing something.
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) errors.push(`csp: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { context, page, errors };
}

/** Accepts the terms dialog when this browser profile has not yet (it blocks the arena until then). */
export async function acceptTerms(page: Page): Promise<void> {
  await page.getByTestId('prompt').waitFor();
  if (await page.evaluate(() => localStorage.getItem('agora.terms-accepted') === '1')) return;
  const terms = page.getByTestId('terms');
  await terms.waitFor();
  await terms.getByTestId('terms-agree').check();
  await terms.getByTestId('terms-accept').click();
  await terms.waitFor({ state: 'detached' });
}

export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}${name}.png`, fullPage });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations on the current page. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the browser's debugging protocol, which the page's Content-Security-Policy does not
  // govern: an injected <script> would be refused by it, as any inline script an attacker slipped in would be.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: object,
          ) => Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run(document, {
      resultTypes: ['violations'],
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 3).map((node) => node.target.join(' ')),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.targets.join(', ')}`);
}

/** Presses Tab until the focused element matches `selector` (keyboard-only navigation). */
export async function tabTo(page: Page, selector: string, maxTabs = 60): Promise<void> {
  for (let i = 0; i < maxTabs; i += 1) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`could not reach ${selector} with Tab`);
}

/** True when the page scrolls sideways (a broken layout). */
export function hasHorizontalOverflow(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1);
}
