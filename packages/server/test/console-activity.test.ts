import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activitySchema } from '@agora/contract';
import { ComparIaImportService } from '../src/services/comparia-import.service';
import { type Runtime, systemRuntime } from '../src/services/ports/runtime';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotator } from './annotator-fixture';
import { DIALECTS, countRows } from './test-db';
import { type ArenaClient, type TestArena, startTestArena, until } from './test-arena';

const fixtures = fileURLToPath(new URL('./fixtures/comparia/', import.meta.url));
const ADMIN_TOKEN = 'console-activity-admin-token';

/** A clock set to chosen days, running from there at real speed (the arena stamps rows with it). */
class DayClock {
  private offsetMs = 0;
  readonly runtime: Runtime = { ...systemRuntime, now: () => new Date(Date.now() + this.offsetMs) };
  set(instant: string): void {
    this.offsetMs = Date.parse(instant) - Date.now();
  }
}

/** A reviewer's session cookie: invited (as `agora staff add` does), then the one-time link used through the API. */
async function reviewerCookie(harness: TestArena, email: string): Promise<string> {
  const invited = await harness.arena.console.staff.invite(email, 'reviewer');
  const token = new URL(invited.link).hash.replace('#token=', '');
  const response = await fetch(`${harness.baseUrl}/api/v1/staff/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: 'a long reviewer password' }),
  });
  expect(response.status).toBe(200);
  return response.headers.get('set-cookie')!.split(';')[0]!;
}

async function activity(harness: TestArena, days: number | string, headers: Record<string, string>) {
  const response = await fetch(`${harness.baseUrl}/api/v1/admin/activity?days=${days}`, { headers });
  return { status: response.status, json: (await response.json()) as any };
}

/** One duel played to where the test says: streamed, then reacted to, reported and voted on as asked. */
async function play(
  client: ArenaClient,
  body: { prompt: string; mode: string; models?: string[] },
  then: { reaction?: boolean; report?: boolean; vote?: 'a' | 'b' | 'tie' } = {},
): Promise<string> {
  const created = await client.request('POST', '/api/v1/duels', body);
  expect(created.status).toBe(201);
  const id = created.json.id as string;
  await client.stream(id);
  if (then.reaction)
    expect((await client.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'a', turn: 1, value: 'like' })).status).toBe(200);
  if (then.report)
    expect((await client.request('POST', `/api/v1/duels/${id}/report`, { category: 'misleading' })).status).toBeLessThan(300);
  if (then.vote) expect((await client.request('POST', `/api/v1/duels/${id}/vote`, { choice: then.vote })).status).toBe(200);
  return id;
}

describe.each(DIALECTS)('the console’s activity ($name)', (dialect) => {
  const clock = new DayClock();
  const environment = {
    AGORA_ADMIN_TOKEN: ADMIN_TOKEN,
    AGORA_ANNOTATION_MODEL: ANNOTATOR.id,
    AGORA_POSTPROCESS_EVERY_S: '0.2',
    AGORA_POSTPROCESS_IDLE_S: '0',
    AGORA_INSTANCES: dialect.name === 'postgres' ? 'several' : 'one',
  };
  let harness: TestArena;
  let cookie: string;
  let imported: { duels: number; votes: number };

  beforeAll(async () => {
    clock.set('2026-02-10T09:00:00.000Z');
    harness = await startTestArena(dialect, { catalogue: catalogueWithAnnotator, environment, runtime: clock.runtime });
    harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    // compar:IA's fixtures, dated March 2025: inside a year's period, left out of every arena figure.
    const before = await countRows(harness.store.location);
    await new ComparIaImportService(harness.arena.store).importFiles(
      { conversations: `${fixtures}conversations.jsonl`, votes: `${fixtures}votes.jsonl` },
      { trustSource: true },
    );
    const after = await countRows(harness.store.location);
    imported = { duels: after.duels! - before.duels!, votes: after.votes! - before.votes! };

    const { client, fake, arena } = harness;
    await play(
      client,
      {
        prompt: 'Explique la photosynthèse des plantes vertes, s’il te plaît.',
        mode: 'custom',
        models: ['zephyrine-405b', 'brontal-120b'],
      },
      { reaction: true, vote: 'a' },
    );
    await play(
      client,
      { prompt: 'Comment bien dormir quand on travaille de nuit ?', mode: 'custom', models: ['miravel-24b', 'kestrix-8b'] },
      { report: true },
    );
    await arena.duels.drain();

    clock.set('2026-02-11T09:00:00.000Z');
    // Kestrix refuses (HTTP 400: no retry, and a custom duel replaces nobody) while Miravel is still answering: Miravel's side is cancelled.
    fake.behave('quorvex/kestrix-nano', { httpStatus: 400 });
    fake.behave('tarvonia/miravel-swift', { tokensPerSecond: 25, text: Array.from({ length: 40 }, (_, index) => `mot${index}`).join(' ') });
    await play(client, { prompt: 'Que manger avant une course à pied ?', mode: 'custom', models: ['kestrix-8b', 'miravel-24b'] });
    fake.behave('quorvex/kestrix-nano', {});
    fake.behave('tarvonia/miravel-swift', {});
    await play(
      client,
      { prompt: 'Quels aliments aident à faire baisser la tension ?', mode: 'custom', models: ['zephyrine-405b', 'miravel-24b'] },
      { vote: 'tie' },
    );
    await arena.duels.drain();

    clock.set('2026-02-12T09:00:00.000Z');
    await play(
      client,
      { prompt: 'Pourquoi la photosynthèse a-t-elle besoin de lumière ?', mode: 'reasoning' },
      { reaction: true, vote: 'b' },
    );
    await arena.duels.drain();
    cookie = await reviewerCookie(harness, 'reviewer@example.org');
  });
  afterAll(() => harness?.close());

  it('counts each day’s duels, votes, reactions and reports, the funnel, modes and each model’s failures, exactly', async () => {
    const { status, json } = await activity(harness, 3, { cookie });
    expect(status).toBe(200);
    const body = activitySchema.parse(json);
    expect({ from: body.from, to: body.to, days: body.days }).toEqual({ from: '2026-02-10', to: '2026-02-12', days: 3 });
    expect(body.series).toEqual([
      { day: '2026-02-10', duels: 2, votes: 1, reactions: 1, reports: 1 },
      { day: '2026-02-11', duels: 2, votes: 1, reactions: 0, reports: 0 },
      { day: '2026-02-12', duels: 1, votes: 1, reactions: 1, reports: 0 },
    ]);
    expect(body.totals).toEqual({ duels: 5, votes: 3, reactions: 2, reports: 1 });
    // Five prompts; the failed duel never had both answers; three of the four answered were voted on.
    expect(body.funnel).toEqual({ prompts: 5, answered: 4, voted: 3 });
    expect(body.modes).toEqual([
      { name: 'custom', count: 4 },
      { name: 'reasoning', count: 1 },
    ]);
    const model = (id: string) => body.models.find((entry) => entry.model === id);
    expect(model('kestrix-8b')).toEqual({ model: 'kestrix-8b', sides: 2, complete: 1, failed: 1, cancelled: 0, failure_rate: 0.5 });
    expect(model('miravel-24b')).toEqual({ model: 'miravel-24b', sides: 3, complete: 2, failed: 0, cancelled: 1, failure_rate: 0 });
    expect(model('zephyrine-405b')).toMatchObject({ sides: 2, complete: 2, failure_rate: 0 });
    expect(body.models[0]!.model).toBe('kestrix-8b');
    expect(body.models.reduce((sum, entry) => sum + entry.sides, 0)).toBe(10);
    // March 2025 is outside three days.
    expect(body.imported).toEqual({ duels: 0, votes: 0 });
  });

  it('narrows to the period asked and counts the imported duels apart, never in the arena’s figures', async () => {
    const lastDay = (await activity(harness, 1, { cookie })).json;
    expect(lastDay.series).toEqual([{ day: '2026-02-12', duels: 1, votes: 1, reactions: 1, reports: 0 }]);
    expect(lastDay.funnel).toEqual({ prompts: 1, answered: 1, voted: 1 });
    const year = activitySchema.parse((await activity(harness, 366, { authorization: `Bearer ${ADMIN_TOKEN}` })).json);
    expect(imported.duels).toBeGreaterThan(0);
    expect(year.imported).toEqual(imported);
    expect(year.series).toHaveLength(366);
    expect(year.totals).toEqual({ duels: 5, votes: 3, reactions: 2, reports: 1 });
    expect(year.funnel).toEqual({ prompts: 5, answered: 4, voted: 3 });
  });

  it('counts languages and topics over the period’s screened conversations only', async () => {
    // All five duels are screened (the failed one too); the imported ones, screened or not, are not counted.
    const body = await until(
      async () => activitySchema.parse((await activity(harness, 366, { cookie })).json),
      (answer) => answer.screened >= 5,
    );
    expect(body.screened).toBe(5);
    // The fake models answer in English, which outweighs the French prompts; the failed duel has no complete turn to read a language from.
    expect(body.languages).toEqual([
      { name: 'en', count: 4 },
      { name: 'und', count: 1 },
    ]);
    expect(body.topics).toEqual([
      { name: 'Health & Wellness & Medicine', count: 2 },
      { name: 'Natural Science & Formal Science & Technology', count: 2 },
    ]);
    // The failed duel has no topic: the annotation model reads complete turns only.
    expect(body.topics_none).toBe(1);
  });

  it('refuses a bad period (400), no session (401), and is the same on every instance', async () => {
    for (const days of ['0', '367', 'abc', '1.5', '-3']) {
      const refused = await activity(harness, days, { cookie });
      expect(refused.status, days).toBe(400);
      expect(refused.json.error.code).toBe('invalid_request');
    }
    expect((await activity(harness, 3, {})).status).toBe(401);
    if (dialect.name !== 'postgres') return;
    const second = await startTestArena(dialect, {
      catalogue: catalogueWithAnnotator,
      environment,
      runtime: clock.runtime,
      store: harness.store,
    });
    try {
      const [one, other] = await Promise.all([activity(harness, 30, { cookie }), activity(second, 30, { cookie })]);
      expect(other.status).toBe(200);
      expect({ ...other.json, generated_at: null }).toEqual({ ...one.json, generated_at: null });
      expect(other.json.totals.duels).toBe(5);
    } finally {
      await second.close();
    }
  });
});
