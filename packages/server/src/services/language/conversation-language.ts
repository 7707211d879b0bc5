import { UNDETERMINED } from './language-codes';

/** One message's language and its length in characters. */
export interface MessageLanguage {
  language: string;
  characters: number;
}

/**
 * The language of a conversation: the one that covers the most characters across its messages,
 * `und` messages left out; on a tie, the language of the earliest such message; `und` when no
 * message has a language.
 */
export function conversationLanguage(messages: readonly MessageLanguage[]): string {
  const totals = new Map<string, number>();
  for (const { language, characters } of messages) {
    if (language !== UNDETERMINED) totals.set(language, (totals.get(language) ?? 0) + characters);
  }
  let best = UNDETERMINED;
  let bestTotal = 0;
  for (const [language, total] of totals) {
    if (total > bestTotal) [best, bestTotal] = [language, total];
  }
  return best;
}
