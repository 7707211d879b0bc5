import type { LanguageDetector } from '../../src/adapters/language-detector';
import { createConversationAnnotator } from '../../src/adapters/conversation-annotator';
import { inlineRulesLayer } from '../../src/adapters/rules-layer/rules-layer';
import type { Store } from '../../src/db/unit-of-work';
import { conversationLanguages } from '../../src/domain/language/conversation-language';
import { UNDETERMINED } from '../../src/domain/language/language-codes';
import { PostprocessService } from '../../src/services/postprocess.service';
import { ANNOTATOR, catalogueWithAnnotator } from '../annotator-fixture';
import { TEST_MODELS } from '../test-arena';
import type { InProcessArena, Visitor } from './harness';

/**
 * Post-processing for the in-process tests: the real service and rules layer on the arena's store
 * and test clock, the annotation model a scripted one. The language detector is a stand-in: the real
 * one loads 190 MB of n-gram tables (about 2 s), more than a whole in-process file may take; its
 * own unit tests cover it. This one knows French and English by a few words.
 */

/** The id of the annotation model, scripted like the duel models (`harness.models.script(ANNOTATOR.id, …)`). */
export const ANNOTATOR_ID = ANNOTATOR.id;

const FRENCH = /\b(je|tu|vous|le|la|les|des|est|une|mon|ma|et|pour|avec|bonjour|merci)\b/i;
const ENGLISH = /\b(i|you|the|is|are|and|for|with|my|hello|thanks)\b/i;

/** French or English by their commonest words; `und` for text with neither. */
export const markerLanguageDetector: LanguageDetector = {
  detect: (text) => Promise.resolve(languageOf(text)),
  detectConversation: (messages) => {
    const languages = messages.map(languageOf);
    const ranked = conversationLanguages(languages.map((language, index) => ({ language, characters: messages[index]!.length })));
    return Promise.resolve({ messages: languages, conversation: ranked[0] ?? UNDETERMINED, languages: ranked });
  },
};

function languageOf(text: string): string {
  if (FRENCH.test(text)) return 'fr';
  return ENGLISH.test(text) ? 'en' : UNDETERMINED;
}

export interface ScreeningOptions {
  /** With the scripted annotation model (the model layer), or the rules alone. */
  withModel: boolean;
  maxAttempts?: number;
  retryDelayMs?: number;
  idleMs?: number;
}

/** The post-processing service on this arena's store, clock and scripted models. */
export function screeningService(harness: InProcessArena, options: ScreeningOptions): PostprocessService {
  const model = catalogueWithAnnotator('http://127.0.0.1:9').find((candidate) => candidate.entry.id === ANNOTATOR_ID)!;
  const annotator = options.withModel
    ? createConversationAnnotator(ANNOTATOR_ID, harness.models.clientOf(model), { timeoutMs: 5000 })
    : undefined;
  return new PostprocessService(harness.arena.store, inlineRulesLayer(markerLanguageDetector), annotator, harness.runtime, {
    maxAttempts: options.maxAttempts ?? 3,
    retryDelayMs: options.retryDelayMs ?? 60_000,
    idleMs: options.idleMs ?? 3_600_000,
    concurrency: 2,
  });
}

/** What the annotation model answers: topics, and whether it saw personal data the rules cannot. */
export function topicsAnswer(personalData: readonly string[] = []): string {
  return JSON.stringify({
    categories: ['Education', 'not a category'],
    keywords: ['histoire', 'école', 'révision'],
    short_summary: 'The visitor asks for help revising a history lesson.',
    personal_data: { found: personalData.length > 0, kinds: personalData },
  });
}

const [first, second] = TEST_MODELS.map((model) => model.id) as [string, string];

/** Plays a one-turn duel with this prompt and these answers, and votes: the vote queues it for screening. */
export async function votedDuel(visitor: Visitor, harness: InProcessArena, prompt: string, answers: [string, string]): Promise<string> {
  harness.models.script(first, { answer: answers[0] });
  harness.models.script(second, { answer: answers[1] });
  const { id } = await visitor.playedDuel([first, second], prompt);
  const vote = await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' });
  if (vote.status !== 200) throw new Error(`vote refused: ${JSON.stringify(vote.json)}`);
  return id;
}

/** The ids of the conversations an export would publish, in store order. */
export async function exportableIds(store: Store): Promise<string[]> {
  const ids: string[] = [];
  for await (const batch of store.datasets.exportableConversations({ privateCohorts: [], batchSize: 100 }))
    ids.push(...batch.map((conversation) => conversation.duelId));
  return ids;
}
