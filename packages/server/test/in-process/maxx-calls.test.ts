import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OPTIMAL } from '../maxx-fixture';
import { type InProcessArena, startInProcessArena } from './harness';
import { honestRoles, honestVerdict, lastMessage, maxxWorker, outcomesOf, type RoleIds, screenedDuel, verdict } from './maxx-roles';

/**
 * The optimised set's calls to models that misbehave as real ones do, in process
 * (docs/datasets.md#maxx-calls and #maxx-rules, Failures): answers cut on their budget, JSON that is
 * partial or not JSON at all, refusals, a 429 with Retry-After. One screened duel (a vote and a
 * dislike, two items) on the in-memory store; waits between attempts are slept on the test clock.
 * What must hold: no row from an incomplete or unparsed answer, the right reason for each drop,
 * every attempt counted, and nothing in the store that a later run would wrongly read back.
 */

let harness: InProcessArena;
let roles: RoleIds;
beforeAll(async () => {
  harness = await startInProcessArena({ AGORA_INTEGRITY_MIN_VOTE_S: '0' });
  await screenedDuel(harness);
});
afterAll(() => harness.close());
beforeEach(() => {
  roles = honestRoles(harness);
});

const budgetsOf = (modelId: string) => harness.models.callsOf(modelId).map((call) => call.maxOutputTokens);
const count = (values: readonly unknown[], value: unknown) => values.filter((candidate) => candidate === value).length;

describe('answers cut on their budget, in process', () => {
  it('never reads a verdict from a judge’s answer cut on length, even when it parses: it is asked again with twice the budget', async () => {
    // Cut, this answer still parses, and prefers the original; the complete one, with a larger budget, the optimal reply.
    harness.models.respond(roles.judges[0], (options) =>
      options.maxOutputTokens === 2048 ? { ...verdict('tie'), finishReason: 'length' } : honestVerdict(options),
    );
    const { service } = maxxWorker(harness, roles);
    expect(await service.run()).toMatchObject({ items: 2, kept: 2, dropped: {} });
    const budgets = budgetsOf(roles.judges[0]);
    expect(new Set(budgets)).toEqual(new Set([2048, 4096]));
    expect(count(budgets, 2048)).toBe(count(budgets, 4096));
    const records = await harness.arena.store.maxx.listItems(service.runKey);
    expect(records.every((record) => record.stats.incompleteAnswers! > 0)).toBe(true);
  });

  it('drops as truncated an item whose reply stays cut, with no row; the next run asks only the larger budget and keeps it', async () => {
    harness.models.respond(roles.generator, () => ({ answer: OPTIMAL.slice(0, 20), finishReason: 'length' }));
    const { service } = maxxWorker(harness, roles);
    const cut = await service.run({ concurrency: 1 });
    expect(cut).toMatchObject({ items: 2, kept: 0, dropped: { truncated: 2 }, unfinished: 0 });
    // Each draft sent twice (4096, then 8192 tokens), and nothing else: no step reads a cut reply.
    expect(budgetsOf(roles.generator)).toEqual([4096, 8192, 4096, 8192]);
    expect(cut.requestsByStep).toEqual({ draft: 4 });
    for (const role of [roles.reviewer, roles.critic, ...roles.judges]) expect(harness.models.callsOf(role)).toEqual([]);
    const records = await harness.arena.store.maxx.listItems(service.runKey);
    expect(records.map(({ status, reason, row }) => ({ status, reason, row }))).toEqual([
      { status: 'dropped', reason: 'truncated', row: null },
      { status: 'dropped', reason: 'truncated', row: null },
    ]);
    // The provider's fault: not a final outcome.
    expect(await harness.arena.store.maxx.finishedItemKeys(service.runKey)).toEqual(new Set());

    harness.models.respond(roles.generator, () => ({ answer: OPTIMAL }));
    const sent = harness.models.calls.length;
    expect(await service.run()).toMatchObject({ items: 2, kept: 2, dropped: {} });
    // The stored cut answers are not asked for again: straight to the larger budget (then the styling both items share).
    expect(budgetsOf(roles.generator).slice(4)).toEqual([8192, 8192, 4096]);
    expect(harness.models.calls.length).toBeGreaterThan(sent);
  });

  it('drops as truncated, not unfinished, an item whose cut answer the provider refuses to give a larger budget (400)', async () => {
    harness.models.respond(roles.judges[0], (options) =>
      options.maxOutputTokens === 2048 ? { ...verdict('A'), finishReason: 'length' } : { refuse: 400 },
    );
    const { service } = maxxWorker(harness, roles);
    expect(await service.run()).toMatchObject({ items: 2, kept: 0, dropped: { truncated: 2 }, unfinished: 0 });
  });

  it('treats a refusal by content filter as an incomplete answer: asked again with a larger budget, then dropped as truncated', async () => {
    harness.models.respond(roles.generator, () => ({ answer: 'Je ne peux pas répondre à cette demande.', finishReason: 'content-filter' }));
    const { service } = maxxWorker(harness, roles);
    expect(await service.run({ concurrency: 1 })).toMatchObject({ items: 2, kept: 0, dropped: { truncated: 2 } });
    expect(budgetsOf(roles.generator)).toEqual([4096, 8192, 4096, 8192]);
  });
});

describe('structured answers that are not the JSON asked for, in process', () => {
  it('asks a reviewer whose JSON was cut short once more, with its answer and the parse error, then goes on', async () => {
    const partial = '{"defects": ["La seconde phrase est inexa';
    harness.models.script(roles.reviewer, { answer: partial });
    const { service } = maxxWorker(harness, roles);
    expect(await service.run()).toMatchObject({ items: 2, kept: 2, dropped: {} });
    const [first, again] = harness.models.callsOf(roles.reviewer);
    expect(again!.messages.slice(first!.messages.length)).toEqual([
      { role: 'assistant', content: partial },
      { role: 'user', content: expect.stringMatching(/^That answer is not the JSON object asked for \(not JSON\)/) },
    ]);
  });

  it('drops as malformed an item whose judge answers prose then the wrong shape, caches neither, and a later run asks again', async () => {
    // A refusal in words, then JSON with a verdict the schema does not know.
    harness.models.script(
      roles.judges[0],
      { answer: 'Je ne peux pas départager ces deux réponses.' },
      { answer: JSON.stringify({ reasons: 'the first one', better: 'Reply A' }) },
    );
    harness.models.respond(roles.judges[0], () => ({ answer: 'Sure! A is clearly better.' }));
    const { service } = maxxWorker(harness, roles);
    expect(await service.run()).toMatchObject({ items: 2, kept: 0, dropped: { 'malformed structured output': 2 } });
    const records = await harness.arena.store.maxx.listItems(service.runKey);
    expect(records.every((record) => record.row === null)).toBe(true);
    // Asked again with the parse error: "not JSON" for prose, the schema's complaint for the wrong shape.
    const complaints = harness.models
      .callsOf(roles.judges[0])
      .map(lastMessage)
      .filter((message) => message.startsWith('That answer is not the JSON object asked for'));
    expect(complaints).toEqual(expect.arrayContaining([expect.stringContaining('(not JSON)'), expect.stringContaining('at better')]));

    harness.models.respond(roles.judges[0], honestVerdict);
    const asked = harness.models.callsOf(roles.judges[0]).length;
    expect(await service.run()).toMatchObject({ items: 2, kept: 2, dropped: {} });
    // No malformed answer was read back from the cache: the judge was asked again.
    expect(harness.models.callsOf(roles.judges[0]).length).toBeGreaterThan(asked);
    expect(await outcomesOf(harness, service)).toEqual({
      'arena-general': { status: 'kept', reason: null, strength: 'medium' },
      reactions: { status: 'kept', reason: null, strength: 'medium' },
    });
  });
});

describe('providers that refuse, in process', () => {
  it('waits as long as a 429’s Retry-After asks, two minutes at most, and counts every attempt', async () => {
    harness.models.script(
      roles.generator,
      { refuse: 429, retryable: true, retryAfterMs: 7_000 },
      { refuse: 429, retryable: true, retryAfterMs: 600_000 },
    );
    const { service, waits } = maxxWorker(harness, roles, { settings: { callAttempts: 3, backoffMs: 1000 } });
    const before = harness.models.calls.length;
    const result = await service.run({ concurrency: 1 });
    expect(result).toMatchObject({ items: 2, kept: 2, unfinished: 0 });
    // The upstream's wait when it is longer than the backoff (1 s, then 2 s), bounded at 2 min.
    expect(waits).toEqual([7_000, 120_000]);
    // Three requests for the first item's draft, one for the second's; every request the models received is counted.
    expect(result.requestsByStep.draft).toBe(4);
    expect(result.requests).toBe(harness.models.calls.length - before);
  });

  it('leaves an item without an outcome when a provider keeps refusing: no record, and the next run takes it up', async () => {
    harness.models.respond(roles.generator, () => ({ refuse: 503, retryable: true }));
    const { service, waits } = maxxWorker(harness, roles, { settings: { callAttempts: 3, backoffMs: 1000 } });
    expect(await service.run({ concurrency: 1 })).toMatchObject({ items: 2, kept: 0, dropped: {}, unfinished: 2, requests: 6 });
    // Exponential backoff without a Retry-After.
    expect(waits).toEqual([1000, 2000, 1000, 2000]);
    expect(await harness.arena.store.maxx.listItems(service.runKey)).toEqual([]);

    harness.models.respond(roles.generator, () => ({ answer: OPTIMAL }));
    expect(await service.run()).toMatchObject({ items: 2, kept: 2, unfinished: 0 });
  });

  it('does not retry a refusal that will not change (403): one request, the item left without an outcome', async () => {
    harness.models.respond(roles.generator, () => ({ refuse: 403 }));
    const { service, waits } = maxxWorker(harness, roles);
    expect(await service.run({ concurrency: 1 })).toMatchObject({ items: 2, kept: 0, unfinished: 2, requests: 2 });
    expect(waits).toEqual([]);
    expect(await harness.arena.store.maxx.listItems(service.runKey)).toEqual([]);
  });

  it('lets the next worker take up at once what a finished run left to a later one, without waiting out that run’s leases', async () => {
    const worker = () => maxxWorker(harness, roles, { settings: { leaseMs: 120_000 } });
    harness.models.respond(roles.generator, () => ({ refuse: 403 }));
    expect(await worker().service.run()).toMatchObject({ items: 2, unfinished: 2 });
    // The next process: the items are its at once, and its cut replies leave them to a later run again.
    harness.models.respond(roles.generator, () => ({ answer: OPTIMAL, finishReason: 'length' }));
    const second = worker();
    expect(await second.service.run()).toMatchObject({ items: 2, dropped: { truncated: 2 } });
    expect(second.waits).toEqual([]);
    harness.models.respond(roles.generator, () => ({ answer: OPTIMAL }));
    const third = worker();
    expect(await third.service.run()).toMatchObject({ items: 2, kept: 2 });
    expect(third.waits).toEqual([]);
  });
});
