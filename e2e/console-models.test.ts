import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../packages/server/src/config/config';
import { createConsoleServices } from '../packages/server/src/composition/console-services';
import { openDatabase } from '../packages/server/src/db/dialect';
import { createStore } from '../packages/server/src/db/unit-of-work';
import { systemRuntime } from '../packages/server/src/services/ports/runtime';
import { FakeUpstream } from '../packages/server/test/fake-upstream/fake-upstream';
import { type ProxiedInstances, canRunBehindNginx, startProxiedInstances } from '../packages/server/test/proxied-instances';
import { ArenaClient, testCatalogueYaml, until } from '../packages/server/test/test-arena';
import { DIALECTS } from '../packages/server/test/test-db';
import { axeViolations, hasHorizontalOverflow, launchBrowser, newPage, screenshot } from './harness';
import { LOCALES, VIEWPORTS, catalogueOf, message } from './locales';

const PASSWORD = 'a long admin password';
const EMAIL = 'admin@models.example';
const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');

/** An admin whose one-time link was used through the first instance's API: the browser then signs in with the form. */
async function admin(instances: ProxiedInstances): Promise<void> {
  const location = instances.store.location;
  const environment = { DATABASE_URL: location.kind === 'postgres' ? location.url : '' };
  const store = createStore(openDatabase(location));
  try {
    const invited = await createConsoleServices({ config: loadConfig(environment), store, runtime: systemRuntime }).staff.invite(
      EMAIL,
      'admin',
    );
    const response = await fetch(`${instances.instances[0]!.url}/api/v1/staff/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: new URL(invited.link).hash.replace('#token=', ''), password: PASSWORD }),
    });
    expect(response.status).toBe(200);
  } finally {
    await store.close();
  }
}

async function signIn(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/admin/models`);
  await page.locator('#staff-email').fill(EMAIL);
  await page.locator('#staff-password').fill(PASSWORD);
  await page.locator('form button[type="submit"]').click();
  await page.getByTestId('console-who').waitFor();
}

/**
 * Two `agora serve` processes on one PostgreSQL, with one models.yaml whose provider is the fake
 * upstream: an admin adds a model on the first, and the second draws it without a restart.
 */
describe.runIf(canRunBehindNginx(postgres))('the console’s models page, two instances on one PostgreSQL', () => {
  const upstream = new FakeUpstream();
  let instances: ProxiedInstances;
  let browser: Browser;
  let cookies: Awaited<ReturnType<BrowserContext['cookies']>> = [];

  beforeAll(async () => {
    await upstream.start();
    [instances, browser] = await Promise.all([
      startProxiedInstances(postgres!, {
        count: 2,
        modelsYaml: testCatalogueYaml(upstream.baseUrl),
        environment: { AGORA_MODEL_SYNC_MS: '1000', AGORA_INTEGRITY_MIN_VOTE_S: '0' },
      }),
      launchBrowser(),
    ]);
    await admin(instances);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await instances?.close();
    await upstream.stop();
  });

  it('an admin adds a model on one instance; a duel on the other draws it; its facts change, a test call answers', async () => {
    const [first, second] = instances.instances.map((instance) => instance.url) as [string, string];
    const { context, page, errors } = await newPage(browser, { locale: 'en-GB' });
    await signIn(page, first);
    cookies = await context.cookies();
    await page.locator('tr[data-model="zephyrine-405b"]').waitFor();
    expect(await page.locator('tbody tr').count()).toBe(6);
    await screenshot(page, 'console-models-list-1280');

    await page.locator('#add-provider-model').fill('ostrand/velmora-12b');
    await page.locator('#add-id').fill('velmora-12b');
    await page.locator('#add-name').fill('Velmora Light');
    await page.locator('#add-organisation').fill('Ostrand Works');
    await page.locator('#add-license').fill('MIT');
    await page.locator('#add-params').fill('12');
    await page.locator('#add-description-en').fill('A small model added from the console.');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const added = page.locator('tr[data-model="velmora-12b"]');
    await added.waitFor();
    const addedAt = Date.now();
    expect(await added.locator('.origin').textContent()).toBe('Added here');

    // The second instance never restarted: it draws the model once its poll saw the change.
    upstream.behave('ostrand/velmora-12b', { text: 'Hello from Velmora, the added model.' });
    const visitor = new ArenaClient(second);
    const created = await until(
      () => visitor.request('POST', '/api/v1/duels', { prompt: 'Hello', mode: 'custom', models: ['velmora-12b', 'zephyrine-405b'] }),
      (answer) => answer.status === 201,
      10_000,
    );
    console.log(`[e2e/console-models] the second instance drew the added model ${Date.now() - addedAt} ms after the page showed it`);
    expect((await visitor.stream(created.json.id as string)).at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
    expect(upstream.requestsFor('ostrand/velmora-12b').length).toBe(1);

    // A test call from the console.
    await added.getByRole('button', { name: /^Test/ }).click();
    const result = page.getByTestId('test-result');
    await result.locator('blockquote').waitFor();
    expect(await result.locator('blockquote').textContent()).toBe('Hello from Velmora, the added model.');
    await screenshot(page, 'console-models-test-1280');

    // A YAML model's facts changed: shown as such.
    await page.locator('tr[data-model="brontal-120b"]').getByRole('button', { name: /^Edit/ }).click();
    await page.locator('#edit-params').fill('130');
    await screenshot(page, 'console-models-edit-1280');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    const brontal = page.locator('tr[data-model="brontal-120b"]');
    await expect.poll(() => brontal.locator('.origin').textContent()).toBe('Changed here');
    expect(await brontal.textContent()).toContain('Changed: Parameters (billions)');
    expect(await axeViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 60_000);

  it.each(LOCALES.flatMap((locale) => VIEWPORTS.map(([width, viewport]) => ({ locale, width, viewport }))))(
    'speaks $locale at $width width, axe clean and without sideways scrolling',
    async ({ locale, width, viewport }) => {
      const { context, page, errors } = await newPage(browser, { locale, viewport });
      await context.addCookies(cookies);
      await page.goto(`${instances.instances[1]!.url}/admin/models`);
      await page.locator('tr[data-model="velmora-12b"]').waitFor();
      const messages = catalogueOf(locale);
      expect(await page.locator('h1').textContent()).toBe(message(messages, 'console.models.title'));
      expect(await page.locator('tr[data-model="velmora-12b"] .origin').textContent()).toBe(
        message(messages, 'console.models.origin.added'),
      );
      await screenshot(page, `console-models-${locale}-${width}`);
      if (await hasHorizontalOverflow(page))
        console.log(
          await page.evaluate(() =>
            [...document.querySelectorAll('body *')]
              .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
              .slice(0, 8)
              .map((element) => `${element.tagName}.${element.className} ${Math.round(element.getBoundingClientRect().right)}`),
          ),
        );
      expect(await hasHorizontalOverflow(page)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    },
    60_000,
  );
});
