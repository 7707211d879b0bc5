import type { Store } from '../db/unit-of-work';
import type { Runtime } from './ports/runtime';

/** What the demo seeds: how many past duels, between which models, and who is left out. */
export interface DemoSeedPlan {
  /** The demo's models, strongest first: seeded votes follow Bradley–Terry strengths in this order. */
  models: readonly string[];
  /** Duels to seed (each with one vote): enough for every pair to be compared several times. */
  duels: number;
  /** Spread over this many past days, so the board's "over time" views have something to show. */
  days: number;
}

const PROMPTS = [
  'Explain photosynthesis to a ten-year-old.',
  'Écris un haïku sur la pluie à Paris.',
  'What should I check before buying a used bicycle?',
  'Résume la Révolution française en cinq phrases.',
  'How do I reverse a list in Python?',
  'Give me three ideas for a rainy Sunday with children.',
] as const;
/** Votes of the seeded visitors: ties and both-bad too, in about compar:IA's shares. */
const TIE_SHARE = 0.15;
const BOTH_BAD_SHARE = 0.05;
const SEED_VISITORS = 24;

/**
 * `npm run demo` on an empty store: past duels with votes between the demo's models, so that the
 * leaderboard, the model sheets and the datasets page have something to show from the first minute.
 * They are written as conversations of their own seeded visitors ("demo seed" in each prompt), never
 * on a store that already holds votes, and never outside the demo (main wires it only there).
 */
export async function seedDemoDuels(store: Store, runtime: Runtime, plan: DemoSeedPlan): Promise<number> {
  if ((await store.feedback.countVotes()) > 0 || plan.models.length < 2) return 0;
  const now = runtime.now().getTime();
  for (let index = 0; index < plan.duels; index++) {
    const [modelA, modelB] = drawPair(plan.models, runtime.random);
    const at = new Date(now - ((plan.duels - index) / plan.duels) * plan.days * 86_400_000).toISOString();
    const prompt = `${PROMPTS[index % PROMPTS.length]!} (demo seed ${index + 1})`;
    const id = `demo-seed-${index + 1}-${runtime.newId()}`;
    const visitorHash = `demo-seed-visitor-${index % SEED_VISITORS}`;
    await writeDuel(store, { id, visitorHash, modelA, modelB, prompt, at });
    // A seeded visitor reads both answers before voting (half a minute or more), as the integrity rules expect of a person.
    const votedAt = new Date(Date.parse(at) + 30_000 + Math.floor(runtime.random() * 60_000)).toISOString();
    await store.feedback.insertVote({
      duelId: id,
      choice: drawChoice(plan.models.indexOf(modelA), plan.models.indexOf(modelB), plan.models.length, runtime.random),
      modelA,
      modelB,
      tagsA: [],
      tagsB: [],
      commentA: null,
      commentB: null,
      identityLeak: false,
      mode: 'random',
      locale: 'en',
      createdAt: votedAt,
    });
  }
  return plan.duels;
}

function drawPair(models: readonly string[], random: () => number): [string, string] {
  const first = Math.floor(random() * models.length);
  const second = (first + 1 + Math.floor(random() * (models.length - 1))) % models.length;
  return [models[first]!, models[second]!];
}

/** A vote between the models at ranks `a` and `b` (0 strongest): Bradley–Terry with 0.35 logit per rank step. */
function drawChoice(a: number, b: number, count: number, random: () => number): 'a' | 'b' | 'tie' | 'both_bad' {
  const roll = random();
  if (roll < BOTH_BAD_SHARE) return 'both_bad';
  if (roll < BOTH_BAD_SHARE + TIE_SHARE) return 'tie';
  const strength = (rank: number) => 0.35 * (count - rank);
  const aWins = 1 / (1 + Math.exp(strength(b) - strength(a)));
  return random() < aWins ? 'a' : 'b';
}

async function writeDuel(
  store: Store,
  duel: { id: string; visitorHash: string; modelA: string; modelB: string; prompt: string; at: string },
): Promise<void> {
  await store.duels.createWithFirstTurn(
    {
      id: duel.id,
      visitorHash: duel.visitorHash,
      mode: 'random',
      modelA: duel.modelA,
      modelB: duel.modelB,
      chosenModels: null,
      locale: 'en',
      status: 'streaming',
      turnCount: 1,
      createdAt: duel.at,
    },
    duel.prompt,
  );
  const side = (name: 'a' | 'b', modelId: string) => ({
    turn: 1,
    side: name,
    modelId,
    text: `A seeded demo answer of ${modelId} to: ${duel.prompt}`,
    reasoning: null,
    outputTokens: 120,
    outputTokensSource: 'provider' as const,
    status: 'complete' as const,
    errorKind: null,
    finishReason: 'stop',
    ttftMs: 300,
    durationMs: 3000,
    identityLeak: false,
    servedModel: null,
    servedModelMismatch: false,
    style: null,
  });
  await store.duels.finishTurn({
    duelId: duel.id,
    turn: 1,
    status: 'complete',
    errorCode: null,
    framesJson: '[]',
    endedAt: duel.at,
    sides: [side('a', duel.modelA), side('b', duel.modelB)],
    errors: [],
    duelStatus: 'ready',
  });
}
