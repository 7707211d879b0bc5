import type { AuditPage, IntegrityOverview, ReviewConversationBody, ReviewCountsBody, ReviewQueueBody } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_INTEGRITY_RULES } from '../src/domain/arena/vote-integrity';
import { systemRuntime } from '../src/services/ports/runtime';
import { rankVoteTable, storeVoteTable } from '../src/services/rank-votes';
import { VoteIntegrityService } from '../src/services/vote-integrity';
import { exportableIds } from './in-process/screening';
import { runAgora } from './run-agora';
import { DIALECTS } from './test-db';
import { ClientAt, TEST_MODELS, type TestArena, startTestArena, until } from './test-arena';

const TOKEN = 'console-review-admin-token-01';
const admin = { authorization: `Bearer ${TOKEN}` };
const REVIEWER = 'relecteur@example.org';

/** A reviewer signed in through the API: the session cookie and its CSRF token. */
async function signedInReviewer(harness: TestArena): Promise<{ cookie: string; csrf: string }> {
  const invited = await harness.arena.console.staff.invite(REVIEWER, 'reviewer');
  const token = new URL(invited.link).hash.replace('#token=', '');
  const response = await fetch(`${harness.baseUrl}/api/v1/staff/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, password: 'a long reviewer password' }),
  });
  expect(response.status).toBe(200);
  const session = (await response.json()) as { csrf_token: string };
  return { cookie: response.headers.get('set-cookie')!.split(';')[0]!, csrf: session.csrf_token };
}

type Seeded = Record<'clean' | 'email' | 'phone' | 'reported', string>;

const PROMPTS: Record<keyof Seeded, string> = {
  clean: 'Quels sont les bienfaits de la marche ?',
  email: 'Écris-moi à marc.lefevre@laposte.net pour le devis.',
  phone: 'Please call me on 06 12 34 56 78 tomorrow about the invoice.',
  reported: 'Raconte une histoire sur mon fils qui est à l’hôpital.',
};

/** Four voted, screened conversations: a clean one, two flagged by the rules (an e-mail, a phone number), one reported. */
async function seed(harness: TestArena): Promise<Seeded> {
  const ids = {} as Seeded;
  for (const [key, prompt] of Object.entries(PROMPTS) as [keyof Seeded, string][]) {
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
    await harness.client.stream(created.json.id);
    await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' });
    ids[key] = created.json.id as string;
  }
  expect((await harness.client.request('POST', `/api/v1/duels/${ids.reported}/report`, { reason: 'mon enfant' })).status).toBe(202);
  for (const id of Object.values(ids))
    await until(
      () => harness.arena.store.annotations.find(id),
      (found) => found?.status === 'done',
    );
  return ids;
}

/** What `agora pii` says of every message of these conversations, fed one line at a time: the kinds per conversation. */
async function piiOfConversations(harness: TestArena, duelIds: readonly string[]): Promise<Map<string, Set<string>>> {
  const conversations = await harness.arena.store.duels.listConversations(duelIds);
  const lines: { duelId: string; text: string }[] = [];
  for (const [duelId, { turns, sides }] of conversations)
    for (const text of [...turns.map((turn) => turn.prompt), ...sides.map((side) => side.text)])
      for (const line of text.split('\n')) lines.push({ duelId, text: line });
  const ran = await runAgora(['pii'], lines.map((line) => line.text).join('\n') + '\n');
  expect(ran.code).toBe(0);
  const verdicts = ran.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { pii: boolean; kinds: string[] });
  expect(verdicts).toHaveLength(lines.length);
  const kinds = new Map(duelIds.map((id) => [id, new Set<string>()]));
  verdicts.forEach((verdict, index) => verdict.kinds.forEach((kind) => kinds.get(lines[index]!.duelId)!.add(kind)));
  return kinds;
}

describe.each(DIALECTS)('the console’s review queue ($name)', (dialect) => {
  let harness: TestArena;
  let ids: Seeded;
  let session: { cookie: string; csrf: string };

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      environment: { AGORA_ADMIN_TOKEN: TOKEN, AGORA_POSTPROCESS_EVERY_S: '0.1', AGORA_POSTPROCESS_IDLE_S: '0' },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    ids = await seed(harness);
    session = await signedInReviewer(harness);
  }, 60_000);
  afterAll(() => harness.close());

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    harness.client.request(method, `/api/v1/admin${path}`, body, { cookie: session.cookie, 'x-agora-csrf': session.csrf, ...headers });
  const queue = async (query: string) =>
    ((await call('GET', `/review?${query}`)).json as ReviewQueueBody).items.map((item) => item.duel_id);

  it('counts each queue as `agora pii` finds the same conversations of the store, kind by kind', async () => {
    const counts = (await call('GET', '/review-counts')).json as ReviewCountsBody;
    const pii = await piiOfConversations(harness, Object.values(ids));
    const flaggedByPii = [...pii].filter(([, kinds]) => kinds.size > 0);
    expect(flaggedByPii.map(([id]) => id).sort()).toEqual([ids.email, ids.phone].sort());
    expect(counts.queues).toMatchObject({ pending: 3, flagged: flaggedByPii.length, reported: 1, excluded: 0, included: 0 });
    const byKind = new Map<string, number>();
    for (const [, kinds] of flaggedByPii) for (const kind of kinds) byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    expect(
      Object.fromEntries(counts.kinds.filter((entry) => entry.layer === 'rules').map((entry) => [entry.kind, entry.conversations])),
    ).toEqual(Object.fromEntries(byKind));
    expect(byKind.get('email')).toBe(1);
    expect(byKind.get('phone')).toBe(1);
  });

  it('filters by kind, language and age, the counts with the same filters', async () => {
    expect(await queue('rule=email')).toEqual([ids.email]);
    expect(((await call('GET', '/review-counts?rule=phone')).json as ReviewCountsBody).queues).toMatchObject({ pending: 1, flagged: 1 });
    expect(await queue('min_age_days=1')).toEqual([]);
    expect((await queue('max_age_days=1')).sort()).toEqual([ids.email, ids.phone, ids.reported].sort());

    const pending = ((await call('GET', '/review')).json as ReviewQueueBody).items;
    const counts = (await call('GET', '/review-counts')).json as ReviewCountsBody;
    expect(counts.languages.length).toBeGreaterThan(0);
    for (const language of counts.languages) {
      const expected = pending.filter((item) => item.languages?.includes(language)).map((item) => item.duel_id);
      expect(await queue(`language=${language}`)).toEqual(expected);
      expect(((await call('GET', `/review-counts?language=${language}`)).json as ReviewCountsBody).queues.pending).toBe(expected.length);
    }
    for (const bad of ['rule=%25', 'language=french', 'min_age_days=-1', 'max_age_days=x'])
      expect((await call('GET', `/review?${bad}`)).json.error.code).toBe('invalid_request');
  });

  it('shows a conversation with the flagged spans where the visitor typed them, and the vote it carries', async () => {
    const body = (await call('GET', `/review/${ids.email}`)).json as ReviewConversationBody;
    const [turn] = body.turns;
    expect(turn!.prompt_findings).toEqual([{ kind: 'email', start: expect.any(Number), end: expect.any(Number) }]);
    const [span] = turn!.prompt_findings;
    expect(turn!.prompt.slice(span!.start, span!.end)).toBe('marc.lefevre@laposte.net');
    expect(body.flagged_by.rules).toEqual(['email']);
    expect(body.vote).toMatchObject({ choice: 'a' });
  });

  it('records the signed-in member as the reviewer, one by one and in bulk (one transaction), and the next export follows', async () => {
    // A body's name is ignored: the reviewer is who is signed in.
    const included = await call('PUT', `/review/${ids.email}`, { decision: 'include', reviewer: 'mallory', reason: 'a public address' });
    expect(included.json.decision).toMatchObject({ decision: 'include', reviewer: REVIEWER });
    expect(await exportableIds(harness.arena.store)).toContain(ids.email);

    const logBefore = ((await call('GET', '/review-log')).json as { entries: unknown[] }).entries.length;
    const unknown = await call('POST', '/review-decisions', { duel_ids: [ids.phone, 'no-such-duel'], decision: 'exclude' });
    expect(unknown).toMatchObject({ status: 404, json: { error: { code: 'duel_not_found' } } });
    expect(((await call('GET', '/review-log')).json as { entries: unknown[] }).entries).toHaveLength(logBefore);
    const withoutCsrf = await call('POST', '/review-decisions', { duel_ids: [ids.email], decision: 'exclude' }, { 'x-agora-csrf': 'no' });
    expect(withoutCsrf.status).toBe(403);
    const anonymous = await harness.client.request('POST', '/api/v1/admin/review-decisions', {
      duel_ids: [ids.email],
      decision: 'exclude',
    });
    expect(anonymous.status).toBe(401);

    const bulk = await call('POST', '/review-decisions', { duel_ids: [ids.email, ids.reported], decision: 'exclude', reason: 'personal' });
    expect(bulk.status).toBe(200);
    expect(bulk.json.audit).toEqual([
      expect.objectContaining({
        duel_id: ids.email,
        decision: 'exclude',
        previous_decision: 'include',
        reviewer: REVIEWER,
        reason: 'personal',
      }),
      expect.objectContaining({ duel_id: ids.reported, decision: 'exclude', previous_decision: null, reviewer: REVIEWER }),
    ]);
    // The export's own predicate: the excluded conversation is gone from the next export.
    expect(await exportableIds(harness.arena.store)).not.toContain(ids.email);
    expect(await queue('queue=excluded')).toEqual(expect.arrayContaining([ids.email, ids.reported]));

    // The console's audit log has the bulk action with its actor and rows.
    const audit = (await harness.client.request('GET', '/api/v1/admin/audit?limit=50', undefined, admin)).json as AuditPage;
    expect(audit.entries).toContainEqual(
      expect.objectContaining({ actor: REVIEWER, method: 'POST', route: '/api/v1/admin/review-decisions', rows: 2, status: 200 }),
    );
  });
});

const TARGET = 'kestrix-8b';
const sizeOf = (id: string) => TEST_MODELS.find((model) => model.id === id)!.params;

describe.each(DIALECTS)('the console’s vote integrity ($name)', (dialect) => {
  let harness: TestArena;
  let attack: string[];

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      environment: {
        AGORA_ADMIN_TOKEN: TOKEN,
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
        AGORA_TRUSTED_PROXIES: '127.0.0.1,::1',
        AGORA_INTEGRITY_MIN_VOTE_S: '2.5',
      },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    // Honest visitors (each its own address) prefer the bigger model, then call every pair a tie once.
    const pairs = TEST_MODELS.flatMap((left, index) => TEST_MODELS.slice(index + 1).map((right) => [left.id, right.id] as const));
    const honest = await Promise.all(
      [...pairs, ...pairs].map(async ([a, b], index) => {
        const visitor = new ClientAt(harness.baseUrl, `198.51.${index + 1}.7`);
        const created = await visitor.request('POST', '/api/v1/duels', { prompt: `Question ${index}`, mode: 'custom', models: [a, b] });
        await visitor.stream(created.json.id);
        return { visitor, id: created.json.id as string };
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 5000));
    for (const [index, { visitor, id }] of honest.entries()) {
      const duel = await harness.arena.store.duels.findById(id);
      const choice = index >= pairs.length ? 'tie' : sizeOf(duel!.modelA) > sizeOf(duel!.modelB) ? 'a' : 'b';
      expect((await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice })).status).toBe(200);
    }
    // A script votes for the smallest model at once, from one address range.
    attack = [];
    for (let index = 0; index < 12; index++) {
      const script = new ClientAt(harness.baseUrl, `203.0.113.${index + 10}`);
      const other = TEST_MODELS[index % 5]!.id === TARGET ? TEST_MODELS[5].id : TEST_MODELS[index % 5]!.id;
      const created = await script.request('POST', '/api/v1/duels', { prompt: `Vote ${index}`, mode: 'custom', models: [TARGET, other] });
      await script.stream(created.json.id);
      const duel = await harness.arena.store.duels.findById(created.json.id);
      expect(
        (await script.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: duel!.modelA === TARGET ? 'a' : 'b' })).status,
      ).toBe(200);
      attack.push(created.json.id as string);
    }
  }, 90_000);
  afterAll(() => harness.close());

  it('groups the flagged votes by rule, visitor and address, and says what they would move, as `agora leaderboard` fits it', async () => {
    const overview = (await harness.client.request('GET', '/api/v1/admin/votes/integrity', undefined, admin)).json as IntegrityOverview;
    expect(overview.flagged_votes).toBe(attack.length);
    expect(overview.by_rule).toContainEqual({ flag: 'too_fast', votes: attack.length });
    // Each script vote had a cookie of its own; the addresses fall in one /24 but hash one by one.
    expect(overview.by_visitor).toHaveLength(attack.length);
    expect(overview.by_address.reduce((sum, group) => sum + group.votes, 0)).toBe(attack.length);

    // With the flagged votes: the same store ranked by `agora leaderboard`'s code with rules that flag nothing.
    // Without them: the live leaderboard's main board (its own worker and kept columns).
    const open = rankVoteTable(
      await storeVoteTable(
        harness.arena.store,
        { minVoteMs: 0, oneSidedVotes: 1e6, burstVotesPerMinute: 1e6, favouriteVotes: 1e6 },
        { customModeOnMainBoard: true },
      ),
    );
    await harness.arena.leaderboards.refresh();
    const live = (await harness.client.request('GET', '/api/v1/leaderboard')).json as { models: { model: string; rating: number }[] };
    const ratingIn = (rows: readonly { model: string; rating: number }[], model: string) => rows.find((row) => row.model === model)!.rating;
    const target = overview.effect!.find((row) => row.model === TARGET)!;
    expect(target.moved).toBeGreaterThan(0);
    expect(target.moved).toBeCloseTo(ratingIn(open.rows, TARGET) - ratingIn(live.models, TARGET), 0);
    expect(target.counted).toBeCloseTo(ratingIn(live.models, TARGET), 0);
    // The biggest move first.
    expect(overview.effect![0]!.model).toBe(TARGET);

    // Clearing a flag counts the vote: one fewer flagged, through the existing route, by the token's name.
    const cleared = await harness.client.request('PUT', `/api/v1/admin/votes/${attack[0]}`, { decision: 'count' }, admin);
    expect(cleared.status).toBe(200);
    const after = (await harness.client.request('GET', '/api/v1/admin/votes/integrity', undefined, admin)).json as IntegrityOverview;
    expect(after.flagged_votes).toBe(attack.length - 1);
    expect(after.served_models.models).toEqual([]);
  });

  it('reads the live board’s judgement (no vote read again), once for both pages while nothing changes; an instance without it judges in pages and agrees', async () => {
    const feedback = harness.arena.store.feedback;
    const everyVote = vi.spyOn(feedback, 'listRankingVotes');
    const pages = vi.spyOn(feedback, 'rankingVotePages');
    const ids = vi.spyOn(feedback, 'duelIdPages');
    // The live board's refresh reads changes (with a `since`); a judgement in pages reads every vote.
    const fullReads = () => pages.mock.calls.filter((call) => call[1] === undefined).length;
    const read = async (path: string) => (await harness.client.request('GET', `/api/v1/admin/votes/${path}`, undefined, admin)).json;
    const decide = async (decision: 'count' | 'exclude') =>
      expect((await harness.client.request('PUT', `/api/v1/admin/votes/${attack[1]}`, { decision }, admin)).status).toBe(200);
    try {
      await decide('exclude');
      const overview = (await read('integrity')) as IntegrityOverview;
      const flagged = (await read('flagged')) as { votes: { duel_id: string; review: string | null }[] };
      // The same groups and effect (the served-model window moves with the clock).
      expect({ ...((await read('integrity')) as IntegrityOverview), served_models: null }).toEqual({ ...overview, served_models: null });
      expect(ids).toHaveBeenCalledTimes(1);
      expect(flagged.votes.find((vote) => vote.duel_id === attack[1])?.review).toBe('exclude');
      // Another decision: judged again, one fewer flagged.
      await decide('count');
      expect(((await read('integrity')) as IntegrityOverview).flagged_votes).toBe(overview.flagged_votes - 1);
      expect(ids).toHaveBeenCalledTimes(2);
      expect({ fullReads: fullReads(), everyVote: everyVote.mock.calls.length }).toEqual({ fullReads: 0, everyVote: 0 });

      // An instance that does not compute the board reads every vote in pages, and finds the same.
      const rules = { ...DEFAULT_INTEGRITY_RULES, minVoteMs: 2_500 };
      const elsewhere = new VoteIntegrityService(
        harness.arena.store,
        systemRuntime,
        rules,
        () => harness.arena.leaderboards.storedRatings(),
        {
          customModeOnMainBoard: true,
          servedModels: () => Promise.resolve({ since: '', models: [] }),
          providerOf: () => undefined,
        },
      );
      const paged = await elsewhere.overview({ hours: 1, limit: 50 });
      expect(fullReads()).toBe(1);
      const live = (await read('integrity')) as IntegrityOverview;
      expect({ ...paged, served_models: null }).toEqual({ ...live, served_models: null });
      expect((await elsewhere.flagged(200)).votes).toEqual(((await read('flagged')) as { votes: unknown[] }).votes);
      expect(everyVote).not.toHaveBeenCalled();
    } finally {
      for (const spy of [everyVote, pages, ids]) spy.mockRestore();
    }
  });
});
