import type { ReviewConversationBody, ReviewItemBody, ReviewQueueBody } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, type InProcessResponse, type Visitor, startInProcessArena } from './harness';
import { exportableIds, screeningService, votedDuel } from './screening';

/**
 * The review of conversations in process (services/review.service.ts), through the admin API:
 * the queues of conversations the screening flagged or visitors reported, a reviewer's decisions,
 * what they change in the open datasets, and the audit log. Duels are played and voted through the
 * routes, then screened by the real rules layer. One arena for the file (starting one is most of a
 * test's time): each test reads only its own duels, so the tests pass in any order.
 */

const TOKEN = 'review-admin-token-for-tests';
const admin = { authorization: `Bearer ${TOKEN}` };
const first = TEST_MODELS[0].id;
const answers: [string, string] = ['Oui, je peux t’aider pour la révision.', 'Bien sûr, voici les dates clés de la leçon.'];

interface Conversations {
  clean: string;
  flagged: string;
  reported: string;
}

const LONG_PROMPT = `${'🙂'.repeat(150)} Écris à paul.girard@laposte.net pour le devis, merci beaucoup. ${'x'.repeat(200)}`;

let harness: InProcessArena;
/** Read by the queue tests and never decided on. */
let listed: Conversations;
/** Decided on by the decision test alone. */
let decided: Conversations;
beforeAll(async () => {
  harness = await startInProcessArena({ AGORA_ADMIN_TOKEN: TOKEN, AGORA_INTEGRITY_MIN_VOTE_S: '0' });
  listed = await conversations(harness.visitor(), LONG_PROMPT);
  decided = await conversations(harness.visitor(), 'Écris à mon professeur, son adresse est paul.girard@laposte.net, merci.');
  await screeningService(harness, { withModel: false }).runDue(10);
});
afterAll(() => harness.close());

const get = (path: string): Promise<InProcessResponse> => harness.visitor().request('GET', `/api/v1/admin${path}`, undefined, admin);
const decide = (duelId: string, body: unknown, headers: Record<string, string> = admin): Promise<InProcessResponse> =>
  harness.visitor().request('PUT', `/api/v1/admin/review/${encodeURIComponent(duelId)}`, body, headers);

/**
 * A clean conversation, one whose prompt (`flaggedPrompt`) holds an e-mail address, and one its
 * visitor reported; voted a minute apart, to be screened.
 */
async function conversations(visitor: Visitor, flaggedPrompt: string): Promise<Conversations> {
  const clean = await votedDuel(visitor, harness, 'Bonjour, peux-tu m’aider à réviser la Révolution française ?', answers);
  harness.runtime.advance(60_000);
  const flagged = await votedDuel(visitor, harness, flaggedPrompt, answers);
  harness.runtime.advance(60_000);
  const reported = await votedDuel(visitor, harness, 'Raconte une histoire sur mon fils qui est à l’hôpital.', answers);
  const report = await visitor.request('POST', `/api/v1/duels/${reported}/report`, { reason: 'il y a des infos sur mon enfant' });
  if (report.status !== 202) throw new Error(`report refused: ${JSON.stringify(report.json)}`);
  harness.runtime.advance(60_000);
  return { clean, flagged, reported };
}

/** Every item of a queue, page after page of `limit`, following `next_cursor`. */
async function wholeQueue(queue: string, limit: number): Promise<ReviewItemBody[]> {
  const items: ReviewItemBody[] = [];
  let cursor: string | null = null;
  do {
    const page: ReviewQueueBody = (await get(`/review?queue=${queue}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)).json;
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return items;
}

const idsIn = (items: readonly ReviewItemBody[], ours: readonly string[]) =>
  items.map((item) => item.duel_id).filter((id) => ours.includes(id));

describe('the review queues, in process', () => {
  it('lists the flagged and the reported conversations, newest first, with why each is there, and not the clean one', async () => {
    const { clean, flagged, reported } = listed;
    const ours = [clean, flagged, reported];
    const pending = (await get('/review?limit=500')).json as ReviewQueueBody;
    expect(pending.queue).toBe('pending');
    expect(idsIn(pending.items, ours)).toEqual([reported, flagged]);
    const byId = new Map(pending.items.map((item) => [item.duel_id, item]));
    expect(byId.get(flagged)).toMatchObject({
      source: 'arena',
      screening: 'done',
      flagged_by: { rules: ['email'], model: [] },
      reports: [],
      decision: null,
    });
    const reportedItem = byId.get(reported)!;
    expect(reportedItem).toMatchObject({
      flagged_by: { rules: [], model: [] },
      reports: [{ reason: 'il y a des infos sur mon enfant' }],
      opening: 'Raconte une histoire sur mon fils qui est à l’hôpital.',
    });
    // Reported on the test clock, right after its vote.
    expect(reportedItem.reports[0]!.created_at).toBe(reportedItem.created_at);
    expect(idsIn(((await get('/review?queue=flagged&limit=500')).json as ReviewQueueBody).items, ours)).toEqual([flagged]);
    expect(idsIn(((await get('/review?queue=reported&limit=500')).json as ReviewQueueBody).items, ours)).toEqual([reported]);
  });

  it('pages through a queue with the cursor it returns, each conversation once, the last page without a cursor', async () => {
    const onePage = await wholeQueue('pending', 500);
    const paged = await wholeQueue('pending', 1);
    expect(paged.map((item) => item.duel_id)).toEqual(onePage.map((item) => item.duel_id));
    expect(new Set(paged.map((item) => item.duel_id)).size).toBe(paged.length);
    expect(idsIn(paged, Object.values(listed))).toEqual([listed.reported, listed.flagged]);
  });

  it('cuts the opening prompt to 280 characters, never inside one', async () => {
    const item = ((await get('/review?queue=flagged&limit=500')).json as ReviewQueueBody).items.find(
      (found) => found.duel_id === listed.flagged,
    );
    expect(item?.opening).toBe([...LONG_PROMPT].slice(0, 280).join(''));
    expect([...item!.opening]).toHaveLength(280);
  });

  it('refuses bad requests with the JSON error shape and stores nothing', async () => {
    const { clean } = listed;
    const nulCursor = Buffer.from(JSON.stringify(['2026-06-01T12:00:00.000Z', 'a\u0000b'])).toString('base64url');
    const cases: [string, () => Promise<InProcessResponse>, number, string][] = [
      ['no token', () => decide(clean, { decision: 'exclude', reviewer: 'alice' }, {}), 401, 'unauthorized'],
      ['an unknown duel', () => decide('no-such-duel', { decision: 'exclude', reviewer: 'alice' }), 404, 'duel_not_found'],
      ['an unknown decision', () => decide(clean, { decision: 'delete', reviewer: 'alice' }), 400, 'invalid_request'],
      ['an unknown field', () => decide(clean, { decision: 'exclude', reviewer: 'alice', note: 'x' }), 400, 'invalid_request'],
      ['invalid JSON', () => decide(clean, '{"decision":'), 400, 'invalid_json'],
      ['an unknown queue', () => get('/review?queue=everything'), 400, 'invalid_request'],
      ['a limit over 500', () => get('/review?limit=501'), 400, 'invalid_request'],
      ['a forged cursor', () => get('/review?cursor=bm90LWEtY3Vyc29y'), 400, 'invalid_request'],
      ['a cursor with a NUL', () => get(`/review?cursor=${nulCursor}`), 400, 'invalid_request'],
      ['the detail of an unknown duel', () => get('/review/no-such-duel'), 404, 'duel_not_found'],
    ];
    for (const [name, send, status, code] of cases) {
      const answer = await send();
      expect({ name, status: answer.status, code: answer.json?.error?.code }).toEqual({ name, status, code });
      expect(typeof answer.json.error.message, name).toBe('string');
    }
    expect(await harness.arena.store.reviews.findDecision(clean)).toBeUndefined();
    expect((await get(`/review-log?duel_id=${clean}`)).json.entries).toEqual([]);
    expect((await get('/review-log?duel_id=no-such-duel')).json.entries).toEqual([]);
  });
});

describe('a reviewer’s decisions, in process', () => {
  it('publishes an included false positive, withholds an excluded conversation, keeps a reported one out until someone decides, and logs each decision', async () => {
    const { clean, flagged, reported } = decided;
    const ours = [clean, flagged, reported];
    const published = async () => (await exportableIds(harness.arena.store)).filter((id) => ours.includes(id)).sort();
    expect(await published()).toEqual([clean]);

    const decidedAt = harness.runtime.now().toISOString();
    const included = await decide(flagged, { decision: 'include', reviewer: 'alice', reason: 'a business address in a public quote' });
    expect(included).toMatchObject({
      status: 200,
      json: {
        decision: { decision: 'include', reviewer: 'admin-token', reason: 'a business address in a public quote', decided_at: decidedAt },
        audit: { duel_id: flagged, decision: 'include', previous_decision: null, reviewer: 'admin-token', created_at: decidedAt },
      },
    });
    expect((await decide(clean, { decision: 'exclude', reviewer: 'bob' })).json.decision).toMatchObject({ reason: null });
    expect(await published()).toEqual([flagged]);
    expect((await decide(reported, { decision: 'exclude', reviewer: 'bob' })).status).toBe(200);
    expect(await published()).toEqual([flagged]);
    harness.runtime.advance(1_000);
    const changed = await decide(reported, { decision: 'include', reviewer: 'carol', reason: 'fiction, no real child' });
    expect(changed.json.audit).toMatchObject({ decision: 'include', previous_decision: 'exclude', reviewer: 'admin-token' });
    expect(await published()).toEqual([flagged, reported].sort());

    // Decided conversations leave the pending queue for the queue of their decision.
    expect(idsIn(((await get('/review?limit=500')).json as ReviewQueueBody).items, ours)).toEqual([]);
    expect(idsIn(((await get('/review?queue=included&limit=500')).json as ReviewQueueBody).items, ours)).toEqual([reported, flagged]);
    expect(idsIn(((await get('/review?queue=excluded&limit=500')).json as ReviewQueueBody).items, ours)).toEqual([clean]);

    // The audit log keeps every decision, newest first, each with the one it replaced.
    const log = (await get(`/review-log?duel_id=${reported}`)).json as {
      entries: { reviewer: string; previous_decision: string | null }[];
    };
    expect(log.entries.map((entry) => [entry.reviewer, entry.previous_decision])).toEqual([
      ['admin-token', 'exclude'],
      ['admin-token', null],
    ]);
    const newest = (await get('/review-log?limit=1')).json as { entries: { duel_id: string; reviewer: string }[] };
    expect(newest.entries).toEqual([expect.objectContaining({ duel_id: reported, reviewer: 'admin-token' })]);

    // A reviewer reads the whole conversation with the models named, its screening and its history.
    const body = (await get(`/review/${reported}`)).json as ReviewConversationBody;
    const duel = (await harness.arena.store.duels.findById(reported))!;
    const answerOf = (model: string) => (model === first ? answers[0] : answers[1]);
    expect(body.turns).toEqual([
      {
        turn: 1,
        status: 'complete',
        prompt: 'Raconte une histoire sur mon fils qui est à l’hôpital.',
        prompt_findings: [],
        a: { model: duel.modelA, text: answerOf(duel.modelA), findings: [] },
        b: { model: duel.modelB, text: answerOf(duel.modelB), findings: [] },
      },
    ]);
    expect(body.annotation).toMatchObject({ languages: ['fr'], model_status: 'not_configured', categories: null });
    expect(body.decision).toMatchObject({ decision: 'include', reviewer: 'admin-token' });
    expect(body.audit.map((entry) => [entry.decision, entry.reviewer])).toEqual([
      ['include', 'admin-token'],
      ['exclude', 'admin-token'],
    ]);
    expect(body.reports).toEqual([expect.objectContaining({ reason: 'il y a des infos sur mon enfant' })]);
  });
});
