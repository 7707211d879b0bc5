import { parseCatalogue } from '../src/config/catalogue';
import { openDatabase } from '../src/db/dialect';
import type { Store } from '../src/db/unit-of-work';
import type { TestStore } from './test-db';
import { testCatalogueYaml } from './test-arena';

/*
 * Arena conversations seeded straight into a store for the export tests: every privacy case,
 * follow-ups, failures, votes, reactions and cohorts, each with a visitor hash and a duel id that
 * must never reach a published file.
 */

/** One seeded conversation: its prompts (the first one names the case) and what happened to it. */
export interface Seed {
  name: string;
  prompts?: string[];
  /** Turns from this one on failed (default: none). */
  failFrom?: number;
  annotation?: 'done' | 'failed' | 'pending' | 'none';
  pii?: boolean;
  turnsAnnotated?: number;
  report?: boolean;
  decision?: 'include' | 'exclude';
  cohort?: string;
  vote?: { choice: 'a' | 'b' | 'tie' | 'both_bad'; tagsA?: string[]; tagsB?: string[] };
  reactions?: { turn: number; side: 'a' | 'b'; value: 'like' | 'dislike'; tags?: string[] }[];
  /** Verdicts on single turns (the store's choices: `a`, `b`, `both_good`, `both_bad`). */
  verdicts?: { turn: number; choice: 'a' | 'b' | 'both_good' | 'both_bad' }[];
  languages?: string[];
  categories?: string[];
  models?: [string, string];
  at: string;
}

export const visitorHash = (seed: Seed) => `visitorhash-${seed.name.replace(/ /g, '-')}-0123456789abcdef`;
export const duelId = (seed: Seed) => `duelid-${seed.name.replace(/ /g, '-')}-secret`;

export async function seed(store: Store, location: TestStore['location'], seeds: Seed[]): Promise<void> {
  for (const entry of seeds) {
    const [modelA, modelB] = entry.models ?? ['zephyrine-405b', 'brontal-120b'];
    const prompts = entry.prompts ?? [entry.name];
    const id = duelId(entry);
    await store.duels.createWithFirstTurn(
      {
        id,
        visitorHash: visitorHash(entry),
        mode: 'random',
        modelA,
        modelB,
        chosenModels: null,
        locale: 'fr',
        status: 'streaming',
        turnCount: 1,
        createdAt: entry.at,
      },
      prompts[0]!,
    );
    for (let index = 0; index < prompts.length; index++) {
      const turn = index + 1;
      if (turn > 1)
        await store.duels.startFollowUpTurn(id, {
          turn,
          prompt: prompts[index]!,
          status: 'streaming',
          errorCode: null,
          startedAt: entry.at,
          endedAt: null,
        });
      const failed = entry.failFrom !== undefined && turn >= entry.failFrom;
      const side = (name: 'a' | 'b', modelId: string) => ({
        turn,
        side: name,
        modelId,
        text: failed && name === 'b' ? '' : `answer ${name} to ${prompts[index]}`,
        reasoning: name === 'a' && !failed ? `reasoning a to ${prompts[index]}` : null,
        outputTokens: 100 * turn,
        outputTokensSource: 'provider' as const,
        status: failed && name === 'b' ? ('failed' as const) : ('complete' as const),
        errorKind: null,
        finishReason: 'stop',
        ttftMs: 10,
        durationMs: 100,
        identityLeak: false,
        servedModel: null,
        servedModelMismatch: false,
        style: null,
      });
      await store.duels.finishTurn({
        duelId: id,
        turn,
        status: failed ? 'failed' : 'complete',
        errorCode: null,
        framesJson: '[]',
        endedAt: entry.at,
        sides: [side('a', modelA), side('b', modelB)],
        errors: [],
        duelStatus: failed ? 'failed' : 'ready',
      });
    }
    const completeTurns = entry.failFrom === undefined ? prompts.length : entry.failFrom - 1;
    if ((entry.annotation ?? 'done') !== 'none') {
      await store.annotations.save({
        duelId: id,
        status: (entry.annotation ?? 'done') as 'done' | 'failed' | 'pending',
        attempts: 1,
        lastError: null,
        nextAttemptAt: null,
        turnsAnnotated: entry.turnsAnnotated ?? completeTurns,
        languages: entry.languages ?? ['fr'],
        messageLanguages: Array.from({ length: completeTurns }, () => ({ prompt: entry.languages?.[0] ?? 'fr', a: 'fr', b: 'fr' })),
        piiRuleKinds: entry.pii ? ['email'] : [],
        piiModelKinds: null,
        containsPii: entry.pii ?? false,
        modelStatus: 'not_configured',
        modelId: null,
        categories: entry.categories ?? ['science'],
        keywords: ['kw'],
        shortSummary: `summary of ${entry.name}`,
        // Annotated by this version: no first sweep takes them up again (it would detect their languages anew).
        capabilities: [],
        promptCluster: '',
        annotatedAt: entry.at,
        updatedAt: entry.at,
      });
    }
    for (const verdict of entry.verdicts ?? [])
      await store.turnVerdicts.upsert({
        duelId: id,
        turn: verdict.turn,
        choice: verdict.choice,
        clientHash: null,
        createdAt: entry.at,
        updatedAt: entry.at,
      });
    for (const reaction of entry.reactions ?? []) {
      await store.feedback.upsertReaction({
        duelId: id,
        turn: reaction.turn,
        side: reaction.side,
        modelId: reaction.side === 'a' ? modelA : modelB,
        value: reaction.value,
        tags: reaction.tags ?? [],
        comment: null,
        at: entry.at,
      });
    }
    if (entry.vote) {
      await store.feedback.insertVote({
        duelId: id,
        choice: entry.vote.choice,
        modelA,
        modelB,
        tagsA: entry.vote.tagsA ?? [],
        tagsB: entry.vote.tagsB ?? [],
        commentA: null,
        commentB: `comment on ${entry.name}`,
        identityLeak: false,
        mode: 'random',
        locale: 'fr',
        createdAt: entry.at,
      });
    }
    if (entry.report)
      await store.feedback.insertReportOnce({
        id: `report-${id}`,
        duelId: id,
        category: 'personal_data',
        reason: 'personal data',
        turn: null,
        side: null,
        createdAt: entry.at,
      });
    if (entry.decision)
      await store.reviews.decide(
        { duelId: id, decision: entry.decision, reason: null, reviewer: 'reviewer', decidedAt: entry.at },
        `audit-${id}`,
        null,
      );
  }
  // No repository writes cohorts yet (the arena does not set them): label them directly.
  const db = openDatabase(location);
  for (const entry of seeds)
    if (entry.cohort) await db.updateTable('duels').set({ cohort: entry.cohort }).where('id', '=', duelId(entry)).execute();
  await db.destroy();
}

/** The test catalogue with a proprietary model, a system prompt and an operator's training use. */
export const catalogue = () => {
  const models = parseCatalogue(testCatalogueYaml('http://127.0.0.1:9'), 'test-models.yaml', {});
  const kestrix = models.find((model) => model.entry.id === 'kestrix-8b')!;
  kestrix.entry = { ...kestrix.entry, license: 'Quorvex Proprietary', open_weights: false };
  const zephyrine = models.find((model) => model.entry.id === 'zephyrine-405b')!;
  zephyrine.options = { ...zephyrine.options, systemPrompt: 'You are a helpful assistant.' };
  const brontal = models.find((model) => model.entry.id === 'brontal-120b')!;
  // The operator read Brontal's terms: conditions on training, whatever its licence's name says.
  brontal.entry = { ...brontal.entry, training_use: 'check_licence' };
  return models;
};
