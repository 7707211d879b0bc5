import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotator } from './annotator-fixture';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, startTestArena, until } from './test-arena';

/**
 * Two instances on one PostgreSQL (AGORA_INSTANCES=several), each with its own fake upstream: a
 * visitor's requests land on either, as behind a round-robin proxy.
 */
const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');

describe.runIf(postgres)('several instances on one PostgreSQL', () => {
  let first: TestArena;
  let second: TestArena;
  const environment = {
    AGORA_INSTANCES: 'several',
    AGORA_METRICS_TOKEN: 'several-instances-metrics-token',
    AGORA_ADMIN_TOKEN: 'several-instances-admin-token',
    AGORA_TRUSTED_PROXIES: '127.0.0.1,::1',
    AGORA_ANNOTATION_MODEL: ANNOTATOR.id,
    AGORA_POSTPROCESS_EVERY_S: '0.2',
    AGORA_INTEGRITY_MIN_VOTE_S: '0',
    AGORA_LEADERBOARD_MIN_VOTES: '1',
    AGORA_LEADERBOARD_EVERY_S: '0.5',
    AGORA_LEADERBOARD_MIN_INTERVAL_S: '0',
  };
  beforeAll(async () => {
    first = await startTestArena(postgres!, { catalogue: catalogueWithAnnotator, environment });
    second = await startTestArena(postgres!, { catalogue: catalogueWithAnnotator, environment, store: first.store });
    for (const arena of [first, second]) arena.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('streams a turn run by one instance through the other, live, with the same frames; votes and follow-ups go to either', async () => {
    // Slow answers: the turn is still streaming when the other instance is asked for it.
    first.fake.defaultBehaviour = { tokensPerSecond: 40, text: Array.from({ length: 40 }, (_, index) => `mot${index}`).join(' ') };
    second.fake.defaultBehaviour = first.fake.defaultBehaviour;
    const onFirst = new ArenaClient(first.baseUrl);
    const created = await onFirst.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
    const duelId = created.json.id as string;
    const onSecond = new ArenaClient(second.baseUrl, onFirst.visitorCookie);
    // When the other instance's reader gets its first words, and when the turn ends.
    let firstWordsAt = 0;
    const watch = (async () => {
      const response = await fetch(`${second.baseUrl}/api/v1/duels/${duelId}/stream`, { headers: { cookie: onFirst.visitorCookie! } });
      const reader = response.body!.getReader();
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
        if (firstWordsAt === 0 && text.includes('event: text-delta')) firstWordsAt = Date.now();
      }
    })();
    const [throughSecond, direct] = await Promise.all([onSecond.stream(duelId), onFirst.stream(duelId)]);
    const endedAt = Date.now();
    await watch;
    expect(throughSecond).toEqual(direct);
    expect(throughSecond.at(-1)?.event).toMatchObject({ type: 'turn-end', status: 'complete' });
    // Live: the first words reached the other instance's reader long before the end (40 words at 40 tokens/s).
    expect(firstWordsAt).toBeGreaterThan(0);
    expect(endedAt - firstWordsAt).toBeGreaterThan(400);

    // The follow-up runs on the second instance, and the first one streams it.
    const followUp = await onSecond.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: 'Et ensuite ?' });
    expect(followUp.status).toBe(201);
    const [second2, first2] = await Promise.all([onSecond.stream(duelId, { turn: 2 }), onFirst.stream(duelId, { turn: 2 })]);
    expect(first2).toEqual(second2);
    // A vote on the first instance, which cached the duel before the follow-up it did not run, counts both turns.
    const vote = await onFirst.request('POST', `/api/v1/duels/${duelId}/vote`, { choice: 'a' });
    expect(vote.status).toBe(200);
    expect((await onSecond.request('GET', `/api/v1/duels/${duelId}`)).json).toMatchObject({ status: 'voted', turns: [{}, {}] });
  }, 30_000);

  it('labels each instance’s metrics with its instance', async () => {
    const admin = { authorization: 'Bearer several-instances-metrics-token' };
    for (const arena of [first, second]) {
      const text = await (await fetch(`${arena.baseUrl}/metrics`, { headers: admin })).text();
      expect(text).toMatch(/agora_http_requests_total\{[^}]*instance="[^"]+:\d+"/);
    }
  });

  it('post-processes each conversation once, and both instances show the leaderboard one of them fits', async () => {
    first.fake.defaultBehaviour = { tokensPerSecond: 0 };
    second.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const ids: string[] = [];
    for (const [index, arena] of [first, second, first, second].entries()) {
      const client = new ArenaClient(arena.baseUrl);
      const created = await client.request('POST', '/api/v1/duels', { prompt: `Question numéro ${index}` });
      await client.stream(created.json.id);
      expect((await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'b' })).status).toBe(200);
      ids.push(created.json.id as string);
    }
    for (const id of ids)
      await until(
        () => first.arena.store.annotations.find(id),
        (found) => found?.status === 'done',
        20_000,
      );
    const annotated = (arena: TestArena) =>
      arena.fake
        .requestsFor(ANNOTATOR.upstream)
        .filter((request) => ids.some((id) => JSON.stringify(request.body).includes(`Question numéro ${ids.indexOf(id)}`)));
    expect(annotated(first).length + annotated(second).length).toBe(ids.length);
    for (const arena of [first, second])
      await until(
        async () => (await new ArenaClient(arena.baseUrl).request('GET', '/api/v1/leaderboard')).json,
        (board) => Number(board?.n_votes ?? 0) >= ids.length,
        20_000,
      );
  }, 60_000);

  it('flags a vote-stuffing script whose votes are spread over both instances, and either instance lists them', async () => {
    first.fake.defaultBehaviour = { tokensPerSecond: 0 };
    second.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const stuffed: string[] = [];
    // Ten votes (the default threshold), alternating between the instances, from one visitor (its
    // cookie on both) and one address, always the same model: favours_one_model judges a visitor.
    let cookie: string | undefined;
    for (const [index, arena] of Array.from({ length: 10 }, (_, index) => (index % 2 ? second : first)).entries()) {
      const script = new ArenaClient(arena.baseUrl, cookie);
      const headers = { 'x-forwarded-for': '203.0.113.99' };
      const created = await script.request(
        'POST',
        '/api/v1/duels',
        { prompt: `Bourrage ${index}`, mode: 'custom', models: ['kestrix-8b', index % 2 ? 'miravel-24b' : 'sollary-32b'] },
        headers,
      );
      await script.stream(created.json.id);
      const duel = await first.arena.store.duels.findById(created.json.id);
      expect(
        (
          await script.request(
            'POST',
            `/api/v1/duels/${created.json.id}/vote`,
            { choice: duel!.modelA === 'kestrix-8b' ? 'a' : 'b' },
            headers,
          )
        ).status,
      ).toBe(200);
      stuffed.push(created.json.id as string);
      cookie = script.visitorCookie;
    }
    for (const arena of [first, second]) {
      const flagged = await new ArenaClient(arena.baseUrl).request('GET', '/api/v1/admin/votes/flagged', undefined, {
        authorization: 'Bearer several-instances-admin-token',
      });
      const flags = new Map((flagged.json.votes as { duel_id: string; flags: string[] }[]).map((vote) => [vote.duel_id, vote.flags]));
      for (const id of stuffed) expect(flags.get(id)).toContain('favours_one_model');
    }
  }, 30_000);
});
