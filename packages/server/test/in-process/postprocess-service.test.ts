import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_MODELS } from '../test-arena';
import { type InProcessArena, startInProcessArena } from './harness';
import { ANNOTATOR_ID, exportableIds, screeningService, topicsAnswer, votedDuel } from './screening';

/**
 * Post-processing of finished conversations, in process: duels played and voted through the routes,
 * then passes of the real service (rules layer, scripted annotation model) on the arena's store,
 * with the test clock deciding what is due. What is screened decides what an export may publish.
 */

let harness: InProcessArena;
beforeEach(async () => {
  harness = await startInProcessArena({ AGORA_INTEGRITY_MIN_VOTE_S: '0' });
});
afterEach(() => harness.close());

const annotationOf = (duelId: string) => harness.arena.store.annotations.find(duelId);
const annotatorCalls = () => harness.models.calls.filter((call) => call.modelId === ANNOTATOR_ID);
const plainAnswers: [string, string] = ['Oui, je peux t’aider pour la révision.', 'Bien sûr, voici les dates clés de la leçon.'];

describe('post-processing with the rules alone, in process', () => {
  it('flags a conversation with an e-mail address in a prompt and keeps it out of the export; a clean one is published with its languages', async () => {
    const visitor = harness.visitor();
    const clean = await votedDuel(visitor, harness, 'Bonjour, peux-tu m’aider à réviser la Révolution française ?', plainAnswers);
    const flagged = await votedDuel(
      visitor,
      harness,
      'Écris à mon professeur, son adresse est paul.girard@laposte.net, merci.',
      plainAnswers,
    );
    // Voted but not screened yet: nothing is published.
    expect(await exportableIds(harness.arena.store)).toEqual([]);

    const service = screeningService(harness, { withModel: false });
    expect(await service.runDue(10)).toEqual({ processed: 2, done: 2, flagged: 1, retrying: 0, failed: 0 });
    expect(await annotationOf(flagged)).toMatchObject({ status: 'done', containsPii: true, piiRuleKinds: ['email'] });
    expect(await annotationOf(clean)).toMatchObject({
      status: 'done',
      containsPii: false,
      piiRuleKinds: [],
      modelStatus: 'not_configured',
      categories: null,
      languages: ['fr'],
      messageLanguages: [{ prompt: 'fr', a: 'fr', b: 'fr' }],
      turnsAnnotated: 1,
      annotatedAt: harness.runtime.now().toISOString(),
    });
    expect(await exportableIds(harness.arena.store)).toEqual([clean]);
    // Screened once: the next pass finds nothing to do.
    expect((await service.runDue(10)).processed).toBe(0);
  });

  it('screens the prompt of a turn a model broke off: the failed duel is flagged, and nothing of it is published', async () => {
    const [first, second] = TEST_MODELS.map((model) => model.id) as [string, string];
    harness.models.script(first, { breakAfter: 'Je commence ' });
    const visitor = harness.visitor();
    const { id } = await visitor.playedDuel([first, second], 'Mon numéro est le 06 12 34 56 78, rappelle-moi pour la révision.');
    expect((await harness.arena.store.duels.findById(id))?.status).toBe('failed');
    // A failed duel is queued when it fails, like a voted one.
    expect(await annotationOf(id)).toMatchObject({ status: 'pending' });
    await screeningService(harness, { withModel: false }).runDue(10);
    expect(await annotationOf(id)).toMatchObject({ status: 'done', containsPii: true, piiRuleKinds: ['phone'], turnsAnnotated: 1 });
    expect(await exportableIds(harness.arena.store)).toEqual([]);
  });

  it('leaves an unvoted duel alone until it has been idle long enough on the test clock', async () => {
    const [first, second] = TEST_MODELS.map((model) => model.id) as [string, string];
    const { id } = await harness.visitor().playedDuel([first, second], 'Bonjour, une question pour la révision ?');
    const service = screeningService(harness, { withModel: false, idleMs: 600_000 });
    expect((await service.runDue(10)).processed).toBe(0);
    harness.runtime.advance(599_000);
    expect((await service.runDue(10)).processed).toBe(0);
    expect(await annotationOf(id)).toBeUndefined();
    harness.runtime.advance(1_001);
    expect(await service.runDue(10)).toMatchObject({ processed: 1, done: 1 });
    expect(await annotationOf(id)).toMatchObject({ status: 'done', turnsAnnotated: 1 });
  });
});

describe('post-processing with a model layer, in process', () => {
  it('sets the topics from one structured call, and a conversation the model finds a private person in is flagged', async () => {
    const visitor = harness.visitor();
    const service = screeningService(harness, { withModel: true });
    harness.models.script(ANNOTATOR_ID, { answer: topicsAnswer() });
    const clean = await votedDuel(visitor, harness, 'Peux-tu m’aider à réviser la Révolution française ?', plainAnswers);
    expect(await service.runDue(10)).toEqual({ processed: 1, done: 1, flagged: 0, retrying: 0, failed: 0 });
    expect(await annotationOf(clean)).toMatchObject({
      status: 'done',
      containsPii: false,
      piiModelKinds: [],
      modelStatus: 'done',
      modelId: ANNOTATOR_ID,
      // The label the model made up is dropped.
      categories: ['Education'],
      keywords: ['histoire', 'école', 'révision'],
      shortSummary: 'The visitor asks for help revising a history lesson.',
      languages: ['fr'],
    });
    const [call] = annotatorCalls();
    expect(call!.options.responseFormat).toMatchObject({ type: 'json', name: 'conversation_annotation' });
    expect(JSON.stringify(call!.options.messages)).toContain('Révolution française');

    harness.models.script(ANNOTATOR_ID, { answer: topicsAnswer(['name', 'health']) });
    const named = await votedDuel(
      visitor,
      harness,
      'Ma voisine Josiane Morel est malade, comment l’aider pour ses révisions ?',
      plainAnswers,
    );
    expect(await service.runDue(10)).toMatchObject({ processed: 1, done: 1, flagged: 1 });
    expect(await annotationOf(named)).toMatchObject({ containsPii: true, piiRuleKinds: [], piiModelKinds: ['name', 'health'] });
    expect(await exportableIds(harness.arena.store)).toEqual([clean]);
  });

  it('keeps the rules’ verdict when the model refuses (HTTP 429), and calls it again only after the backoff', async () => {
    const service = screeningService(harness, { withModel: true, retryDelayMs: 60_000 });
    harness.models.script(ANNOTATOR_ID, { refuse: 429 }, { answer: topicsAnswer() });
    const duel = await votedDuel(harness.visitor(), harness, 'Rappelle-moi au 06 12 34 56 78 pour la révision.', plainAnswers);
    const failedAt = harness.runtime.now().getTime();
    expect(await service.runDue(10)).toEqual({ processed: 1, done: 0, flagged: 0, retrying: 1, failed: 0 });
    expect(await annotationOf(duel)).toMatchObject({
      status: 'pending',
      attempts: 1,
      modelStatus: 'pending',
      containsPii: true,
      piiRuleKinds: ['phone'],
      languages: ['fr'],
      nextAttemptAt: new Date(failedAt + 60_000).toISOString(),
      lastError: expect.stringContaining('429'),
    });
    expect(await exportableIds(harness.arena.store)).toEqual([]);

    harness.runtime.advance(59_999);
    expect((await service.runDue(10)).processed).toBe(0);
    expect(annotatorCalls()).toHaveLength(1);
    harness.runtime.advance(1);
    expect(await service.runDue(10)).toMatchObject({ processed: 1, done: 1, flagged: 1 });
    // The model saw nothing, the rules saw a phone number: still flagged, never published.
    expect(await annotationOf(duel)).toMatchObject({
      status: 'done',
      attempts: 2,
      lastError: null,
      containsPii: true,
      piiRuleKinds: ['phone'],
      piiModelKinds: [],
      categories: ['Education'],
    });
    expect(await exportableIds(harness.arena.store)).toEqual([]);
  });

  it('retries an answer that is not the JSON asked for, waiting twice as long each time, then marks the conversation failed for good', async () => {
    const service = screeningService(harness, { withModel: true, maxAttempts: 3, retryDelayMs: 60_000 });
    harness.models.script(
      ANNOTATOR_ID,
      { answer: 'Sure! Here is the analysis: {categories: ' },
      { answer: '{"categories": ["Education"]}' },
      { answer: 'I cannot annotate this.' },
    );
    const duel = await votedDuel(harness.visitor(), harness, 'Bonjour, aide-moi pour la révision.', plainAnswers);
    expect(await service.runDue(10)).toMatchObject({ retrying: 1 });
    expect(await annotationOf(duel)).toMatchObject({ containsPii: false, lastError: expect.stringContaining('did not answer JSON') });
    // Clean by the rules, but the model layer has not answered: not published while it waits.
    expect(await exportableIds(harness.arena.store)).toEqual([]);

    harness.runtime.advance(60_000);
    const secondTry = harness.runtime.now().getTime();
    expect(await service.runDue(10)).toMatchObject({ retrying: 1 });
    expect(await annotationOf(duel)).toMatchObject({
      attempts: 2,
      nextAttemptAt: new Date(secondTry + 120_000).toISOString(),
      lastError: expect.stringContaining('does not match the schema'),
    });
    harness.runtime.advance(119_999);
    expect((await service.runDue(10)).processed).toBe(0);

    harness.runtime.advance(1);
    expect(await service.runDue(10)).toEqual({ processed: 1, done: 0, flagged: 0, retrying: 0, failed: 1 });
    expect(await annotationOf(duel)).toMatchObject({ status: 'failed', modelStatus: 'failed', attempts: 3, nextAttemptAt: null });
    // A clean conversation whose screening failed is still never published, and never tried again.
    expect(await exportableIds(harness.arena.store)).toEqual([]);
    harness.runtime.advance(86_400_000);
    expect((await service.runDue(10)).processed).toBe(0);
    expect(annotatorCalls()).toHaveLength(3);
  });
});
