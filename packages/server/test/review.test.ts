import type { ReviewConversationBody, ReviewQueueBody } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, countRows } from './test-db';
import { type TestArena, startTestArena, until } from './test-arena';

const TOKEN = 'review-token-0123456789';
const admin = { authorization: `Bearer ${TOKEN}` };

type Ids = Record<'clean' | 'flagged' | 'reported', string>;

/** An arena with three voted, screened conversations: a clean one, one flagged by the rules, one reported. */
async function seededArena(dialect: (typeof DIALECTS)[number]): Promise<{ harness: TestArena; ids: Ids }> {
  const harness = await startTestArena(dialect, {
    environment: { AGORA_ADMIN_TOKEN: TOKEN, AGORA_POSTPROCESS_EVERY_S: '0.1', AGORA_POSTPROCESS_IDLE_S: '0' },
  });
  harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  const ids: Ids = { clean: '', flagged: '', reported: '' };
  const prompts = {
    clean: 'Quels sont les bienfaits de la marche ?',
    flagged: 'Écris-moi à marc.lefevre@laposte.net pour le devis.',
    reported: 'Raconte une histoire sur mon fils qui est à l’hôpital.',
  };
  for (const [key, prompt] of Object.entries(prompts) as [keyof Ids, string][]) {
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
    await harness.client.stream(created.json.id);
    await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' });
    ids[key] = created.json.id as string;
  }
  expect(
    (await harness.client.request('POST', `/api/v1/duels/${ids.reported}/report`, { reason: 'il y a des infos sur mon enfant' })).status,
  ).toBe(202);
  // One answer of it too, by category: a report of its own beside the conversation's.
  expect(
    (await harness.client.request('POST', `/api/v1/duels/${ids.reported}/report`, { category: 'harmful', turn: 1, side: 'b' })).status,
  ).toBe(202);
  for (const id of Object.values(ids))
    await until(
      () => harness.arena.store.annotations.find(id),
      (found) => found?.status === 'done',
    );
  return { harness, ids };
}

describe.each(DIALECTS)('the review admin API ($name)', (dialect) => {
  // Read by every test but the one that decides, which has an arena of its own: any order works.
  let harness: TestArena;
  let ids: Ids;

  beforeAll(async () => {
    ({ harness, ids } = await seededArena(dialect));
  });
  afterAll(() => harness.close());

  const get = async (path: string) => harness.client.request('GET', `/api/v1/admin${path}`, undefined, admin);
  const decide = async (id: string, body: unknown) => harness.client.request('PUT', `/api/v1/admin/review/${id}`, body, admin);

  it('is behind the admin token', async () => {
    const anonymous = await harness.client.request('GET', '/api/v1/admin/review');
    expect(anonymous.status).toBe(401);
    expect(anonymous.json.error.code).toBe('unauthorized');
    expect(
      (await harness.client.request('PUT', `/api/v1/admin/review/${ids.flagged}`, { decision: 'include', reviewer: 'x' })).status,
    ).toBe(401);
  });

  it('lists flagged and reported conversations, newest first, with why they are there, and pages through them', async () => {
    const pending = (await get('/review')).json as ReviewQueueBody;
    expect(pending.items.map((item) => item.duel_id)).toEqual([ids.reported, ids.flagged]);
    expect(pending.items[1]).toMatchObject({
      screening: 'done',
      flagged_by: { rules: ['email'], model: [] },
      reports: [],
      decision: null,
      source: 'arena',
    });
    expect(pending.items[0]).toMatchObject({
      flagged_by: { rules: [], model: [] },
      reports: [
        { category: 'other', reason: 'il y a des infos sur mon enfant', turn: null, side: null },
        { category: 'harmful', reason: '', turn: 1, side: 'b' },
      ],
      opening: 'Raconte une histoire sur mon fils qui est à l’hôpital.',
    });
    expect(((await get('/review?queue=flagged')).json as ReviewQueueBody).items.map((item) => item.duel_id)).toEqual([ids.flagged]);
    expect(((await get('/review?queue=reported')).json as ReviewQueueBody).items.map((item) => item.duel_id)).toEqual([ids.reported]);

    const first = (await get('/review?limit=1')).json as ReviewQueueBody;
    expect(first.items.map((item) => item.duel_id)).toEqual([ids.reported]);
    const second = (await get(`/review?limit=1&cursor=${first.next_cursor}`)).json as ReviewQueueBody;
    expect(second.items.map((item) => item.duel_id)).toEqual([ids.flagged]);
    expect(second.next_cursor).toBeNull();
  });

  it('records decisions with an append-only audit log, decided conversations leave the pending queue, and a reviewer sees the whole history', async () => {
    const own = await seededArena(dialect);
    const { harness, ids } = own;
    const get = async (path: string) => harness.client.request('GET', `/api/v1/admin${path}`, undefined, admin);
    const decide = async (id: string, body: unknown) => harness.client.request('PUT', `/api/v1/admin/review/${id}`, body, admin);
    try {
      const included = await decide(ids.flagged, {
        decision: 'include',
        // A body's name is accepted and ignored: the reviewer is who is signed in (here the admin token).
        reviewer: 'alice',
        reason: 'the address is a business contact in a public quote',
      });
      expect(included.status).toBe(200);
      expect(included.json).toMatchObject({
        decision: { decision: 'include', reviewer: 'admin-token' },
        audit: { duel_id: ids.flagged, decision: 'include', previous_decision: null },
      });
      expect((await decide(ids.reported, { decision: 'exclude', reviewer: 'bob' })).status).toBe(200);
      const changed = await decide(ids.reported, { decision: 'include', reviewer: 'carol', reason: 'fiction, no real child' });
      expect(changed.json.audit).toMatchObject({ decision: 'include', previous_decision: 'exclude', reviewer: 'admin-token' });

      expect(((await get('/review')).json as ReviewQueueBody).items).toEqual([]);
      expect(((await get('/review?queue=included')).json as ReviewQueueBody).items.map((item) => item.duel_id)).toEqual([
        ids.reported,
        ids.flagged,
      ]);
      expect(((await get('/review?queue=excluded')).json as ReviewQueueBody).items).toEqual([]);

      const log = (await get('/review-log')).json as { entries: { reviewer: string }[] };
      expect(log.entries.map((entry) => entry.reviewer)).toEqual(['admin-token', 'admin-token', 'admin-token']);
      const ofOne = (await get(`/review-log?duel_id=${ids.reported}`)).json as { entries: { reviewer: string }[] };
      expect(ofOne.entries.map((entry) => entry.reviewer)).toEqual(['admin-token', 'admin-token']);

      // The whole conversation with the models named, its screening and its history.
      const body = (await get(`/review/${ids.reported}`)).json as ReviewConversationBody;
      const duel = (await harness.arena.store.duels.findById(ids.reported))!;
      expect(body.turns).toHaveLength(1);
      expect(body.turns[0]).toMatchObject({
        turn: 1,
        status: 'complete',
        prompt: 'Raconte une histoire sur mon fils qui est à l’hôpital.',
        a: { model: duel.modelA },
        b: { model: duel.modelB },
      });
      expect(body.turns[0]!.a!.text.length).toBeGreaterThan(0);
      expect(body.annotation).toMatchObject({ languages: ['fr'], model_status: 'not_configured', categories: null });
      expect(body.decision).toMatchObject({ decision: 'include', reviewer: 'admin-token' });
      expect(body.audit.map((entry) => entry.decision)).toEqual(['include', 'exclude']);
    } finally {
      await harness.close();
    }
  });

  it('refuses bad requests with the error shape and stores nothing', async () => {
    const before = await countRows(harness.store.location);
    const logBefore = ((await get('/review-log')).json as { entries: unknown[] }).entries.length;
    const cases: [string, () => Promise<{ status: number; json: any }>, number, string][] = [
      ['unknown duel', () => decide('no-such-duel', { decision: 'exclude', reviewer: 'alice' }), 404, 'duel_not_found'],
      ['unknown decision', () => decide(ids.clean, { decision: 'delete', reviewer: 'alice' }), 400, 'invalid_request'],
      ['unknown field', () => decide(ids.clean, { decision: 'exclude', reviewer: 'alice', note: 'x' }), 400, 'invalid_request'],
      [
        'invalid JSON',
        () => harness.client.request('PUT', `/api/v1/admin/review/${ids.clean}`, '{"decision":', admin),
        400,
        'invalid_json',
      ],
      ['unknown queue', () => get('/review?queue=everything'), 400, 'invalid_request'],
      ['forged cursor', () => get('/review?cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_request'],
      ['unknown duel detail', () => get('/review/no-such-duel'), 404, 'duel_not_found'],
    ];
    for (const [name, send, status, code] of cases) {
      const response = await send();
      expect({ name, status: response.status, code: response.json?.error?.code }).toEqual({ name, status, code });
      expect(typeof response.json.error.message).toBe('string');
    }
    expect(await countRows(harness.store.location)).toEqual(before);
    expect(((await get('/review-log')).json as { entries: unknown[] }).entries).toHaveLength(logBefore);
    expect(await harness.arena.store.reviews.findDecision(ids.clean)).toBeUndefined();
  });
});
