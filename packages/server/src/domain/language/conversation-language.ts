import { UNDETERMINED } from './language-codes';

/** One message's language and its length in characters. */
export interface MessageLanguage {
  language: string;
  characters: number;
}

/**
 * The languages of a conversation, the one covering the most characters first, `und` messages
 * left out; on a tie, the language of the earliest such message comes first.
 */
export function conversationLanguages(messages: readonly MessageLanguage[]): string[] {
  const totals = new Map<string, number>();
  for (const { language, characters } of messages) {
    if (language !== UNDETERMINED) totals.set(language, (totals.get(language) ?? 0) + characters);
  }
  // Map keeps first-insertion order and sort is stable: ties stay in order of first appearance.
  return [...totals].sort((left, right) => right[1] - left[1]).map(([language]) => language);
}

/** The language of a conversation: the first of {@link conversationLanguages}, `und` when no message has one. */
export function conversationLanguage(messages: readonly MessageLanguage[]): string {
  return conversationLanguages(messages)[0] ?? UNDETERMINED;
}
