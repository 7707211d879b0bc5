import type { LeaderboardBody } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineRankingComputer } from '../src/adapters/ranking-worker/ranking-computer';
import { viewKey } from '../src/domain/ranking/leaderboard-views';
import { LeaderboardService } from '../src/services/leaderboard.service';
import { type Runtime, systemRuntime } from '../src/services/ports/runtime';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotator } from './annotator-fixture';
import { seededRandom } from './seeded-random';
import { DIALECTS, type TestStore } from './test-db';
import { ArenaClient, TEST_MODELS, type TestArena, startTestArena, until } from './test-arena';

/*
 * The live leaderboard keeps its votes as columns between refreshes and reads only what changed
 * (services/leaderboard.service.ts). Whatever happens to the store, a refresh must give what a
 * fresh service, reading every vote, gives: new votes, votes committed late, annotations that
 * change a vote's language and topics, reviews, a retention purge, a restart, another instance.
 */

const ADMIN = 'catch-up-admin-token-0123';
const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');
const PROMPTS = [
  'Bonjour, peux-tu m’expliquer la photosynthèse en quelques phrases simples ?',
  'Hello, could you explain in a few simple sentences how vaccines train the immune system?',
  'Hallo, kannst du mir in ein paar einfachen Sätzen erklären, wie Impfstoffe wirken?',
];

/** A clock the test can set back, to stamp a vote before a refresh that already ran (a late commit). */
class ShiftedClock {
  offsetMs = 0;
  /** Where the clock goes back to after a vote stamped in the past (it only moves forward). */
  baseMs = 0;
  readonly runtime: Runtime = { ...systemRuntime, now: () => new Date(Date.now() + this.offsetMs) };
}

type Service = LeaderboardService;
const latestOf = (service: Service) => (service as unknown as { latest: Map<string, LeaderboardBody> }).latest;
const dependenciesOf = (service: Service) =>
  (service as unknown as { dependencies: Pick<ConstructorParameters<typeof LeaderboardService>[0], 'settings' | 'energyClasses'> })
    .dependencies;

/** A snapshot without its time, numbers to 9 significant digits (the order of additions may differ), rows by model. */
function comparable(views: Map<string, LeaderboardBody>) {
  const round = (value: unknown): unknown =>
    typeof value === 'number'
      ? Number(value.toPrecision(9))
      : Array.isArray(value)
        ? value.map(round)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, round(inner)]))
          : value;
  return Object.fromEntries(
    [...views]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([key, body]) => [
        key,
        round({ ...body, generated_at: null, models: [...body.models].sort((a, b) => a.model.localeCompare(b.model)) }),
      ]),
  );
}

describe.each(DIALECTS)('the kept leaderboard columns ($name)', (dialect) => {
  let harness: TestArena;
  const clock = new ShiftedClock();
  const random = seededRandom(20);
  const visitors: ArenaClient[] = [];
  let postprocessing = true;
  const environment = {
    AGORA_ADMIN_TOKEN: ADMIN,
    AGORA_ANNOTATION_MODEL: ANNOTATOR.id,
    AGORA_POSTPROCESS_EVERY_S: '0.2',
    // The annotation model is down for a while in a test: conversations wait for it.
    AGORA_POSTPROCESS_MAX_ATTEMPTS: '20',
    AGORA_INTEGRITY_MIN_VOTE_S: '0',
    // Low, so that a few visitors trip the rules and the views by language and topic appear.
    AGORA_INTEGRITY_FAVOURITE_VOTES: '4',
    AGORA_LEADERBOARD_MIN_VOTES: '3',
    // Refreshes when the test asks (and once at start: the job is stopped then, for a screened
    // conversation would otherwise start one between a test's votes and its own refresh).
    AGORA_LEADERBOARD_EVERY_S: '3600',
    AGORA_LEADERBOARD_EVERY_VOTES: '1000000',
  };

  let store: TestStore;
  beforeAll(async () => {
    // The test's own store: it outlives the arena's restart.
    store = await dialect.create();
    harness = await startTestArena(dialect, { catalogue: catalogueWithAnnotator, environment, runtime: clock.runtime, store });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    for (let index = 0; index < 5; index++) visitors.push(new ArenaClient(harness.baseUrl));
    await harness.arena.leaderboardRefresh.stop();
  });
  afterAll(async () => {
    await harness?.close();
    await store?.drop();
  });

  /** One duel by a random visitor, in a random language, voted at random (one visitor always picks A). */
  async function playAndVote(arena = harness): Promise<string> {
    const visitor = arena === harness ? visitors[Math.floor(random() * visitors.length)]! : new ArenaClient(arena.baseUrl);
    const prompt = PROMPTS[Math.floor(random() * PROMPTS.length)]!;
    const created = await visitor.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
    expect(created.status).toBe(201);
    await visitor.stream(created.json.id);
    const choice = visitor === visitors[0] ? 'a' : (['a', 'b', 'tie', 'both_bad'] as const)[Math.floor(random() * 4)]!;
    const vote = await visitor.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice });
    expect(vote.status).toBe(200);
    return created.json.id as string;
  }

  /** Refreshes the arena's leaderboard and a fresh service's (a full read); they must agree. */
  async function expectSameAsFullRead(read: 'changes' | 'everything') {
    // Post-processing runs in the background: both reads must see the same annotations.
    if (postprocessing)
      await until(
        async () => {
          const now = new Date(Date.now() + clock.offsetMs + 3600_000).toISOString();
          return harness.arena.store.annotations.countDue({ now, idleBefore: now, modelConfigured: true });
        },
        (due) => due === 0,
        30_000,
      );
    await harness.arena.postprocessJob!.idle();
    const kept = await harness.arena.leaderboards.refresh();
    expect(kept.read).toBe(read);
    const fresh = new LeaderboardService({
      store: harness.arena.store,
      catalogue: harness.arena.catalogue,
      computer: inlineRankingComputer,
      runtime: systemRuntime,
      // The arena's settings and the catalogue's energy classes: the same board, read in full.
      settings: dependenciesOf(harness.arena.leaderboards).settings,
      energyClasses: dependenciesOf(harness.arena.leaderboards).energyClasses,
    });
    const full = await fresh.refresh();
    expect(full.read).toBe('everything');
    expect(kept.votes).toBe(full.votes);
    expect(comparable(latestOf(harness.arena.leaderboards))).toEqual(comparable(latestOf(fresh)));
    return latestOf(fresh);
  }

  it('gives what a full read gives, refresh after refresh, as votes, annotations and reviews come', async () => {
    await harness.arena.leaderboardRefresh.idle();
    for (let index = 0; index < 12; index++) await playAndVote();
    await expectSameAsFullRead('changes');

    // Post-processing gives the conversations their languages and topics: votes already kept change views.
    const annotated = await until(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return expectSameAsFullRead('changes');
      },
      (views) =>
        [...views.values()].some((body) => body.view.category !== null) && [...views.values()].some((body) => body.view.language !== null),
      60_000,
    );
    expect([...annotated.keys()].length).toBeGreaterThan(4);

    // Votes during a refresh.
    const during = harness.arena.leaderboards.refresh();
    await Promise.all([playAndVote(), playAndVote(), playAndVote()]);
    await during;
    await expectSameAsFullRead('changes');

    // Votes cast ten minutes ago (past the margin: not new votes to the next refresh) whose topics
    // come only now, after the annotation model was down: only the annotated changes bring them (and
    // their languages, stored at the first try, brought the votes). Then a reviewer excludes one of
    // them: only the reviewed changes bring that.
    harness.fake.behave(ANNOTATOR.upstream, { httpStatus: 503 });
    clock.offsetMs = clock.baseMs - 600_000;
    const old = [await playAndVote(), await playAndVote(), await playAndVote()];
    clock.offsetMs = clock.baseMs;
    // Their languages are stored at the first try; the retries change nothing until the model is back.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    postprocessing = false;
    const withoutTopics = await expectSameAsFullRead('changes');
    postprocessing = true;
    harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    const withTopics = await until(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return expectSameAsFullRead('changes');
      },
      (views) =>
        [...views.values()][0]!.available.categories.reduce((sum, entry) => sum + entry.n_votes, 0) >
        [...withoutTopics.values()][0]!.available.categories.reduce((sum, entry) => sum + entry.n_votes, 0),
      60_000,
    );
    expect(withTopics.size).toBeGreaterThan(0);
    // Two minutes on, so that the next refresh looks back past none of the above.
    clock.baseMs = clock.offsetMs = 120_000;
    await expectSameAsFullRead('changes');
    const review = await harness.client.request(
      'PUT',
      `/api/v1/admin/votes/${old[0]}`,
      { decision: 'exclude', reviewer: 'ana' },
      {
        authorization: `Bearer ${ADMIN}`,
      },
    );
    expect(review.status).toBe(200);
    const reviewed = await expectSameAsFullRead('changes');
    const overall = viewKey({ style: 'plain' });
    expect(reviewed.get(overall)!.n_votes).toBe(withTopics.get(overall)!.n_votes - 1);

    // A reviewer excludes a vote, then counts it again.
    const excluded = await playAndVote();
    await expectSameAsFullRead('changes');
    for (const decision of ['exclude', 'count'] as const) {
      const decided = await harness.client.request(
        'PUT',
        `/api/v1/admin/votes/${excluded}`,
        { decision, reviewer: 'ana' },
        {
          authorization: `Bearer ${ADMIN}`,
        },
      );
      expect(decided.status).toBe(200);
      await expectSameAsFullRead('changes');
    }
  }, 120_000);

  it('picks up a vote committed after a refresh that began later than its stamp, and reads everything when one came too late', async () => {
    await harness.arena.leaderboards.refresh();
    // Stamped 30 s before the last refresh began (within the margin): read as a change.
    clock.offsetMs = clock.baseMs - 30_000;
    await playAndVote();
    clock.offsetMs = clock.baseMs;
    await expectSameAsFullRead('changes');
    // Stamped 5 minutes before (a commit later than the margin allows): the count of votes shows it.
    // (Post-processing stopped: annotating the conversation now would bring the vote as a change.)
    await harness.arena.postprocessJob!.stop();
    postprocessing = false;
    clock.offsetMs = clock.baseMs - 300_000;
    await playAndVote();
    clock.offsetMs = clock.baseMs;
    // A vote cast now besides: it must not hide the late one from the count.
    await playAndVote();
    await expectSameAsFullRead('everything');
    await expectSameAsFullRead('changes');
  });

  it('reads everything again after a retention purge, which changes who voted', async () => {
    await expectSameAsFullRead('changes');
    const purged = await harness.arena.store.duels.purgeVisitorTraces(new Date(Date.now() + 86_400_000).toISOString());
    expect(purged.duels).toBeGreaterThan(0);
    await expectSameAsFullRead('everything');
    await playAndVote();
    await expectSameAsFullRead('changes');
  });

  it('after a restart, reads every vote once and then follows the changes', async () => {
    const before = comparable(await expectSameAsFullRead('changes'));
    await harness.close();
    harness = await startTestArena(dialect, { catalogue: catalogueWithAnnotator, environment, runtime: clock.runtime, store });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    visitors.splice(0, visitors.length, ...Array.from({ length: 5 }, () => new ArenaClient(harness.baseUrl)));
    postprocessing = true;
    await harness.arena.leaderboardRefresh.stop();
    expect(comparable(latestOf(harness.arena.leaderboards))).toEqual(before);
    await playAndVote();
    await expectSameAsFullRead('changes');
  });
});

describe.runIf(postgres)('the kept leaderboard columns with a second instance', () => {
  it('picks up the votes cast on the other instance', async () => {
    const environment = {
      AGORA_INSTANCES: 'several',
      // The test picks its pairs (custom mode) and ranks them on the main board, which by default leaves them to their own view.
      AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
      AGORA_INTEGRITY_MIN_VOTE_S: '0',
      AGORA_LEADERBOARD_MIN_VOTES: '1',
      AGORA_LEADERBOARD_EVERY_S: '3600',
      AGORA_LEADERBOARD_EVERY_VOTES: '1000000',
      AGORA_POSTPROCESS: '0',
    };
    const first = await startTestArena(postgres!, { environment });
    const second = await startTestArena(postgres!, { environment, store: first.store });
    try {
      for (const arena of [first, second]) arena.fake.defaultBehaviour = { tokensPerSecond: 0 };
      const vote = async (arena: TestArena) => {
        const client = new ArenaClient(arena.baseUrl);
        const created = await client.request('POST', '/api/v1/duels', {
          prompt: 'Bonjour',
          mode: 'custom',
          models: [TEST_MODELS[0].id, TEST_MODELS[1].id],
        });
        await client.stream(created.json.id);
        expect((await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
      };
      await first.arena.leaderboards.refresh();
      await vote(first);
      expect(await first.arena.leaderboards.refresh()).toMatchObject({ votes: 1, read: 'changes' });
      await vote(second);
      await vote(second);
      expect(await first.arena.leaderboards.refresh()).toMatchObject({ votes: 3, read: 'changes' });
      expect(latestOf(first.arena.leaderboards).get(viewKey({ style: 'plain' }))!.n_votes).toBe(3);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
