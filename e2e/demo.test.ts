import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PHONE, acceptTerms, launchBrowser, newPage, screenshot } from './harness';

const root = fileURLToPath(new URL('../', import.meta.url));
/** Duels a newcomer plays before giving up on seeing a failure: the flaky model is in about half of them. */
const MAX_DUELS = 12;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Plays one duel to its end: the answers and the vote panel, or a failure card. */
async function playDuel(page: Page, index: number): Promise<'answered' | 'failed'> {
  await page.getByTestId('prompt').fill(`Question de démonstration ${index}`);
  await page.getByTestId('prompt').press('Enter');
  await page.getByTestId('vote-panel').or(page.getByTestId('error-card')).first().waitFor({ timeout: 30_000 });
  return (await page.getByTestId('error-card').count()) > 0 ? 'failed' : 'answered';
}

/**
 * `npm run demo` as a newcomer meets it (the real script, in its own process, on a fresh store): the
 * leaderboard already ranks the demo's models, and a failure card shows within the first duels.
 */
describe('the offline demo', () => {
  let demo: ChildProcess;
  let browser: Browser;
  let baseUrl: string;
  let output = '';
  const directory = mkdtempSync(join(tmpdir(), 'agora-demo-'));
  beforeAll(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    demo = spawn(process.execPath, ['--import', 'tsx', 'packages/server/src/demo.ts'], {
      cwd: root,
      env: { ...process.env, PORT: String(port), DATABASE_URL: `sqlite:${join(directory, 'demo.db')}`, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    demo.stdout!.setEncoding('utf8').on('data', (text: string) => (output += text));
    demo.stderr!.setEncoding('utf8').on('data', (text: string) => (output += text));
    browser = await launchBrowser();
    for (let waited = 0; ; waited += 250) {
      const ready = await fetch(`${baseUrl}/healthz`).then(
        (response) => response.ok,
        () => false,
      );
      if (ready) break;
      if (waited > 60_000 || demo.exitCode !== null) throw new Error(`the demo did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    demo?.kill('SIGTERM');
    await new Promise((resolve) => (demo?.exitCode !== null ? resolve(undefined) : demo.once('exit', resolve)));
    rmSync(directory, { recursive: true, force: true });
  });

  it('ranks the demo models from the first minute, from seeded votes', async () => {
    expect(output).toMatch(/seeded 240 past duels/);
    let ranked = 0;
    for (let waited = 0; ranked < 2 && waited < 20_000; waited += 500) {
      const board = (await (await fetch(`${baseUrl}/api/v1/leaderboard`)).json()) as { models: { provisional?: boolean }[] };
      ranked = board.models.filter((row) => !row.provisional).length;
      if (ranked < 2) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(ranked).toBeGreaterThanOrEqual(2);
  }, 30_000);

  it('shows a failure card within the first duels, at phone width', async () => {
    const { context, page } = await newPage(browser, { locale: 'en-GB', viewport: PHONE });
    await page.goto(baseUrl);
    await acceptTerms(page);
    const outcomes: string[] = [];
    for (let index = 1; index <= MAX_DUELS; index++) {
      const outcome = await playDuel(page, index);
      outcomes.push(outcome);
      if (outcome === 'failed') break;
      await page.getByTestId('new-duel').click();
      const leave = page.getByTestId('leave-confirm-yes');
      if (await leave.isVisible()) await leave.click();
      await page.getByTestId('prompt').waitFor();
    }
    expect(outcomes.at(-1), `outcomes: ${outcomes.join(', ')}`).toBe('failed');
    await screenshot(page, 'demo-failure-card-en-phone');
    await context.close();
  }, 240_000);
});
