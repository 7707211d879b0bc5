import { parentPort } from 'node:worker_threads';
import { createLanguageDetector } from '../language-detector';
import { type RulesInput, type RulesOutput, screenConversation } from './rules-layer';

/** A chunk of a page, and its answer. */
export interface RulesRequest {
  id: number;
  conversations: RulesInput[];
}
export type RulesReply = { id: number; outputs: RulesOutput[] } | { id: number; error: string };

// Each thread has its own detector (CLD2 is a native addon; eld's tables are this thread's).
const detector = createLanguageDetector();
parentPort!.on('message', (request: RulesRequest) => {
  void (async () => {
    try {
      const outputs: RulesOutput[] = [];
      for (const conversation of request.conversations) outputs.push(await screenConversation(conversation, detector));
      parentPort!.postMessage({ id: request.id, outputs } satisfies RulesReply);
    } catch (error) {
      parentPort!.postMessage({
        id: request.id,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      } satisfies RulesReply);
    }
  })();
});
