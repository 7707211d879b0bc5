import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationAnnotation } from '../src/db/repositories/annotation.repository';
import { DIALECTS } from './test-db';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotator } from './annotator-fixture';
import { type TestArena, TEST_MODELS, startTestArena, until } from './test-arena';

describe.each(DIALECTS)('post-processing of finished duels ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      catalogue: catalogueWithAnnotator,
      environment: {
        AGORA_ANNOTATION_MODEL: ANNOTATOR.id,
        AGORA_POSTPROCESS_EVERY_S: '0.1',
        AGORA_POSTPROCESS_MAX_ATTEMPTS: '2',
        AGORA_POSTPROCESS_IDLE_S: '3600',
      },
    });
  });
  afterAll(() => harness.close());
  afterEach(() => {
    harness.fake.reset();
  });

  async function playAndVote(prompt: string, answer?: string): Promise<string> {
    harness.fake.defaultBehaviour = { tokensPerSecond: 0, ...(answer ? { text: answer } : {}) };
    harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
    expect(created.status).toBe(201);
    await harness.client.stream(created.json.id);
    const vote = await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' });
    expect(vote.status).toBe(200);
    return created.json.id as string;
  }
  const annotationOf = (duelId: string) =>
    until(
      () => harness.arena.store.annotations.find(duelId),
      (found) => found?.status === 'done' || found?.status === 'failed',
    );

  it('annotates a voted duel: languages per message, topics from one structured call, nothing flagged', async () => {
    const duelId = await playAndVote(
      'Explique-moi la photosynthèse en quelques phrases simples, pour un enfant de dix ans.',
      'La photosynthèse permet aux plantes de fabriquer leur nourriture avec la lumière du soleil, de l’eau et du gaz carbonique.',
    );
    const annotation = (await annotationOf(duelId))!;
    expect(annotation).toMatchObject<Partial<ConversationAnnotation>>({
      status: 'done',
      containsPii: false,
      piiRuleKinds: [],
      piiModelKinds: [],
      modelStatus: 'done',
      modelId: ANNOTATOR.id,
      // The unknown label is dropped; a known one is kept.
      categories: ['Natural Science & Formal Science & Technology'],
      keywords: ['biologie', 'plantes', 'lumière', 'chlorophylle', 'énergie'],
      shortSummary: 'The visitor asks for an explanation of a scientific process.',
      languages: ['fr'],
      messageLanguages: [{ prompt: 'fr', a: 'fr', b: 'fr' }],
      turnsAnnotated: 1,
    });
    // One structured call, with the JSON Schema as the response format, sent the conversation.
    const calls = harness.fake.requestsFor(ANNOTATOR.upstream);
    expect(calls).toHaveLength(1);
    const body = calls[0]!.body as {
      response_format: { type: string; json_schema: { schema: { properties: Record<string, unknown> } } };
      messages: { content: string }[];
    };
    expect(body.response_format.type).toBe('json_schema');
    expect(Object.keys(body.response_format.json_schema.schema.properties)).toEqual([
      'categories',
      'keywords',
      'short_summary',
      'personal_data',
      'capabilities',
    ]);
    expect(body.messages.at(-1)!.content).toContain('photosynthèse');
  });

  it('flags a conversation by the rules (an e-mail address in a prompt) and by the model (a named private person)', async () => {
    const byRules = await playAndVote(
      'Rédige un mail de relance pour mon dossier, je suis joignable à camille.perrin@orange.fr si besoin.',
    );
    const byModel = await playAndVote(
      'Ma voisine Josiane Morel vient d’apprendre qu’elle a un diabète, comment puis-je l’aider au quotidien ?',
    );
    expect(await annotationOf(byRules)).toMatchObject({ status: 'done', containsPii: true, piiRuleKinds: ['email'], piiModelKinds: [] });
    expect(await annotationOf(byModel)).toMatchObject({
      status: 'done',
      containsPii: true,
      piiRuleKinds: [],
      piiModelKinds: ['name', 'health'],
    });
  });

  it('retries a failing model call with backoff, then marks the conversation failed (never exported)', async () => {
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const created = await harness.client.request('POST', '/api/v1/duels', {
      prompt: 'Quelle est la capitale du Portugal ?',
      mode: 'random',
    });
    await harness.client.stream(created.json.id);
    harness.fake.behave(ANNOTATOR.upstream, { httpStatus: 503 });
    await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'tie' });
    const annotation = (await annotationOf(created.json.id))!;
    expect(annotation).toMatchObject({ status: 'failed', attempts: 2, modelStatus: 'failed', containsPii: false });
    expect(annotation.lastError).toMatch(/HTTP 503/);
    expect(harness.fake.requestsFor(ANNOTATOR.upstream)).toHaveLength(2);
  });

  it('retries an answer that is not the JSON asked for, and succeeds on the next try', async () => {
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const created = await harness.client.request('POST', '/api/v1/duels', {
      prompt: 'Donne-moi une recette de soupe au potiron.',
      mode: 'random',
    });
    await harness.client.stream(created.json.id);
    let calls = 0;
    harness.fake.behave(ANNOTATOR.upstream, {
      tokensPerSecond: 0,
      text: (prompt) => (++calls === 1 ? 'Sure! Here is the analysis: {categories: ' : annotatorAnswer(prompt)),
    });
    await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'b' });
    const annotation = (await annotationOf(created.json.id))!;
    expect(annotation).toMatchObject({ status: 'done', attempts: 2, modelStatus: 'done', lastError: null });
    expect(calls).toBe(2);
  });

  it('leaves an unvoted duel alone until it has been idle long enough', async () => {
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour, comment vas-tu ?', mode: 'random' });
    await harness.client.stream(created.json.id);
    await harness.arena.postprocessJob!.idle();
    harness.arena.postprocessJob!.nudge();
    await harness.arena.postprocessJob!.idle();
    expect(await harness.arena.store.annotations.find(created.json.id)).toBeUndefined();
  });
});

describe.each(DIALECTS)('post-processing without a model ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_POSTPROCESS_EVERY_S: '0.1', AGORA_POSTPROCESS_IDLE_S: '0' } });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(() => harness.close());

  it('screens with the rules alone, leaves topics visibly not configured, and annotates a conversation again when it grows', async () => {
    const created = await harness.client.request('POST', '/api/v1/duels', {
      prompt: 'Write a haiku about the autumn rain in the mountains.',
      mode: 'custom',
      models: [TEST_MODELS[0].id, TEST_MODELS[2].id],
    });
    await harness.client.stream(created.json.id);
    const first = await until(
      () => harness.arena.store.annotations.find(created.json.id),
      (found) => found?.status === 'done',
    );
    expect(first).toMatchObject({
      status: 'done',
      modelStatus: 'not_configured',
      categories: null,
      keywords: null,
      shortSummary: null,
      containsPii: false,
      languages: ['en'],
      turnsAnnotated: 1,
    });

    const followUp = await harness.client.request('POST', `/api/v1/duels/${created.json.id}/messages`, {
      prompt: 'Mon numéro est le 06 12 34 56 78, rappelle-moi demain.',
    });
    expect(followUp.status).toBe(201);
    await harness.client.stream(created.json.id, { turn: 2 });
    const second = await until(
      () => harness.arena.store.annotations.find(created.json.id),
      (found) => found?.turnsAnnotated === 2,
    );
    expect(second).toMatchObject({ status: 'done', containsPii: true, piiRuleKinds: ['phone'] });
    expect(second!.messageLanguages).toHaveLength(2);
  });
});

describe.each(DIALECTS)('the post-processing queue ($name)', (dialect) => {
  let harness: TestArena;
  afterEach(() => harness.close());

  async function finishedDuel(prompt: string): Promise<string> {
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
    expect(created.status).toBe(201);
    await harness.client.stream(created.json.id);
    return created.json.id as string;
  }

  it('queues a voted duel and a failed one in the transaction that ends them, before any pass', async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_POSTPROCESS: '0' } });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const voted = await finishedDuel('Quelle est la hauteur de la tour Eiffel ?');
    const unvoted = await finishedDuel('Et celle du Mont-Blanc ?');
    expect(await harness.arena.store.annotations.find(voted)).toBeUndefined();
    expect((await harness.client.request('POST', `/api/v1/duels/${voted}/vote`, { choice: 'tie' })).status).toBe(200);
    expect(await harness.arena.store.annotations.find(voted)).toMatchObject({ status: 'pending', attempts: 0, turnsAnnotated: 0 });
    harness.fake.defaultBehaviour = { httpStatus: 500 };
    const failed = await finishedDuel('Cite trois fleuves de France.');
    expect((await harness.arena.store.duels.findById(failed))!.status).toBe('failed');
    expect(await harness.arena.store.annotations.find(failed)).toMatchObject({ status: 'pending', attempts: 0 });
    // An unvoted duel is not queued: the idle rule finds it later.
    expect(await harness.arena.store.annotations.find(unvoted)).toBeUndefined();
  });

  it('annotates a vote committed with a stamp older than what the job has already settled (another instance, a late commit)', async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_POSTPROCESS_EVERY_S: '3600', AGORA_POSTPROCESS_IDLE_S: '0' } });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Le Rhône prend sa source en Suisse, dans le glacier du Rhône.' };
    const duelId = await finishedDuel('Où le Rhône prend-il sa source ?');
    const job = harness.arena.postprocessJob!;
    // Passes until the unvoted duel is annotated by the idle rule (idle at once here) and everything up to now is settled.
    await until(
      async () => {
        job.nudge();
        await job.idle();
        return harness.arena.store.annotations.find(duelId);
      },
      (found) => found?.status === 'done',
    );
    job.nudge();
    await job.idle();
    // A follow-up, then a vote stamped ten minutes ago, as an instance with a late clock would commit it.
    const followUp = await harness.client.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: 'Et où se jette-t-il ?' });
    expect(followUp.status).toBe(201);
    await harness.client.stream(duelId, { turn: 2 });
    const duel = (await harness.arena.store.duels.findById(duelId))!;
    const stamp = new Date(Date.now() - 600_000).toISOString();
    const vote = {
      duelId,
      choice: 'a',
      modelA: duel.modelA,
      modelB: duel.modelB,
      tagsA: [],
      tagsB: [],
      commentA: null,
      commentB: null,
      identityLeak: false,
      mode: duel.mode,
      locale: null,
      createdAt: stamp,
    };
    await harness.arena.store.transaction(async (repositories) => {
      expect(await repositories.duels.closeWithVote(vote)).toBe(true);
      await repositories.annotations.enqueue([duelId], stamp);
    });
    // Queued again because it grew since its annotation; the next pass takes it from the queue, whatever its stamp.
    expect(await harness.arena.store.annotations.find(duelId)).toMatchObject({ status: 'pending', attempts: 0 });
    job.nudge();
    await job.idle();
    expect(await harness.arena.store.annotations.find(duelId)).toMatchObject({ status: 'done', turnsAnnotated: 2, attempts: 1 });
  });

  it('leaves a whole annotation, a retry waiting and a failed one as they are when the duel is queued again', async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_POSTPROCESS: '0' } });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const before = new Date(Date.now() - 1000).toISOString();
    const [whole, waiting, failed] = [await finishedDuel('Un'), await finishedDuel('Deux'), await finishedDuel('Trois')];
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const annotation = (duelId: string, changes: Partial<ConversationAnnotation>): ConversationAnnotation => ({
      duelId,
      status: 'done',
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
      turnsAnnotated: 1,
      languages: [],
      messageLanguages: [],
      piiRuleKinds: [],
      piiModelKinds: null,
      containsPii: false,
      modelStatus: 'not_configured',
      modelId: null,
      categories: null,
      keywords: null,
      shortSummary: null,
      capabilities: [],
      promptCluster: null,
      annotatedAt: now,
      updatedAt: now,
      ...changes,
    });
    const stored = [
      annotation(whole, {}),
      annotation(waiting, { status: 'pending', attempts: 1, nextAttemptAt: later, lastError: 'HTTP 503' }),
      annotation(failed, { status: 'failed', attempts: 3, lastError: 'HTTP 503' }),
    ];
    await harness.arena.store.annotations.saveMany(stored);
    await harness.arena.store.annotations.enqueue([whole, waiting, failed], now);
    for (const expected of stored) expect(await harness.arena.store.annotations.find(expected.duelId)).toEqual(expected);
    // Nothing is due: neither from the queue (a retry later) nor as idle duels changed since before them (annotated whole, failed).
    expect(
      await harness.arena.store.annotations.listDue({ now, idleBefore: now, idleSince: before, modelConfigured: false, limit: 10 }),
    ).toEqual([]);
  });

  it('keeps a conversation queued when it grew while a pass annotated it (a follow-up, then the vote)', async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_POSTPROCESS: '0', AGORA_INTEGRITY_MIN_VOTE_S: '0' } });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const duelId = await finishedDuel('Combien de lunes a Mars ?');
    const { store } = harness.arena;
    // A pass reads the one-turn conversation (idle)…
    const [listed] = await store.annotations.listDue({
      now: new Date().toISOString(),
      idleBefore: new Date().toISOString(),
      modelConfigured: false,
      limit: 10,
    });
    expect(listed).toMatchObject({ duelId, turnCount: 1 });
    // …meanwhile the visitor follows up and votes: the vote queues the conversation, two turns now…
    expect((await harness.client.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: 'Et Jupiter ?' })).status).toBe(201);
    await harness.client.stream(duelId, { turn: 2 });
    expect((await harness.client.request('POST', `/api/v1/duels/${duelId}/vote`, { choice: 'a' })).status).toBe(200);
    expect((await store.duels.findById(duelId))!.status).toBe('voted');
    expect(await store.annotations.find(duelId)).toMatchObject({ status: 'pending', turnsAnnotated: 0 });
    // …and the pass, storing what it made of one turn, leaves the queued row as it is.
    const now = new Date().toISOString();
    const oneTurn: ConversationAnnotation = {
      duelId,
      status: 'done',
      attempts: 1,
      lastError: null,
      nextAttemptAt: null,
      turnsAnnotated: 1,
      languages: ['fr'],
      messageLanguages: [],
      piiRuleKinds: [],
      piiModelKinds: null,
      containsPii: false,
      modelStatus: 'not_configured',
      modelId: null,
      categories: null,
      keywords: null,
      shortSummary: null,
      annotatedAt: now,
      updatedAt: now,
    };
    await store.annotations.saveAnnotated([oneTurn]);
    expect(await store.annotations.find(duelId)).toMatchObject({ status: 'pending', turnsAnnotated: 0 });
    // A pass that read both turns stores its result.
    await store.annotations.saveAnnotated([{ ...oneTurn, turnsAnnotated: 2 }]);
    expect(await store.annotations.find(duelId)).toMatchObject({ status: 'done', turnsAnnotated: 2 });
  });

  it('fills a page from the model backfill and the idle duels without counting one conversation twice', async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_POSTPROCESS: '0' } });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const since = new Date(Date.now() - 1000).toISOString();
    // Screened without a model, then grown by a follow-up: due for the backfill and as an idle grown duel.
    const grown = await finishedDuel('Premier tour');
    const now = new Date().toISOString();
    await harness.arena.store.annotations.saveMany([
      {
        duelId: grown,
        status: 'done',
        attempts: 1,
        lastError: null,
        nextAttemptAt: null,
        turnsAnnotated: 1,
        languages: ['fr'],
        messageLanguages: [],
        piiRuleKinds: [],
        piiModelKinds: null,
        containsPii: false,
        modelStatus: 'not_configured',
        modelId: null,
        categories: null,
        keywords: null,
        shortSummary: null,
        annotatedAt: now,
        updatedAt: now,
      },
    ]);
    expect((await harness.client.request('POST', `/api/v1/duels/${grown}/messages`, { prompt: 'Deuxième tour' })).status).toBe(201);
    await harness.client.stream(grown, { turn: 2 });
    const fresh = await finishedDuel('Une autre conversation');
    const later = new Date(Date.now() + 1000).toISOString();
    const page = await harness.arena.store.annotations.listDue({
      now: later,
      idleBefore: later,
      idleSince: since,
      modelConfigured: true,
      limit: 2,
    });
    expect(page.map((conversation) => conversation.duelId)).toEqual([grown, fresh]);
    expect(page[0]!.turnCount).toBe(2);
  });
});
