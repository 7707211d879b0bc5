import cld from 'cld';
import { eld } from 'eld/medium';
import { conversationLanguages } from '../domain/language/conversation-language';
import { normaliseLanguageCode, UNDETERMINED } from '../domain/language/language-codes';

/** Language identification for the data pipeline: codes are ISO 639-1, else ISO 639-3, or `und`. */
export interface LanguageDetector {
  /** The language of one text, `und` when unsure. */
  detect(text: string): Promise<string>;
  /** Each message's language, the conversation's (majority by characters) and all of them, majority first. */
  detectConversation(messages: readonly string[]): Promise<{ messages: string[]; conversation: string; languages: string[] }>;
}

const ELD_LANGUAGES = new Set(Object.values(eld.info().Languages));

/** CLD2's answer when it is sure (it throws "Failed to identify language" on short input). */
async function cldReliable(text: string): Promise<string | null> {
  try {
    const result = await cld.detect(text);
    return result.reliable ? normaliseLanguageCode(result.languages[0]?.code) : null;
  } catch {
    return null;
  }
}

/** CLD2's best guess, however weak. */
async function cldBestEffort(text: string): Promise<string> {
  try {
    const result = await cld.detect(text, { bestEffort: true });
    return normaliseLanguageCode(result.languages[0]?.code);
  } catch {
    return UNDETERMINED;
  }
}

/**
 * Short or unreliable text: CLD2's best guess and eld vote. Agreement wins; then eld when it calls
 * itself reliable; then CLD2's guess if it is a language eld does not know (Occitan, Breton,
 * Corsican…), since eld could not have voted for it. Otherwise `und`.
 */
async function fallback(text: string): Promise<string> {
  const guess = await cldBestEffort(text);
  const result = eld.detect(text);
  const eldCode = result.language === '' ? UNDETERMINED : normaliseLanguageCode(result.language);
  if (guess !== UNDETERMINED && guess === eldCode) return guess;
  if (eldCode !== UNDETERMINED && result.isReliable()) return eldCode;
  if (guess !== UNDETERMINED && !ELD_LANGUAGES.has(guess)) return guess;
  return UNDETERMINED;
}

/** Detects one text: CLD2 when reliable, else the fallback; text without letters is `und`. */
async function detect(text: string): Promise<string> {
  const trimmed = text.trim();
  if (!/\p{L}/u.test(trimmed)) return UNDETERMINED;
  return (await cldReliable(trimmed)) ?? (await fallback(trimmed));
}

/** The CLD2 + eld language detector (both in process; CLD2 is a native addon). */
export function createLanguageDetector(): LanguageDetector {
  return {
    detect,
    async detectConversation(messages) {
      const languages: string[] = [];
      for (const message of messages) languages.push(await detect(message));
      const measured = languages.map((language, index) => ({ language, characters: [...(messages[index] ?? '')].length }));
      const ranked = conversationLanguages(measured);
      return { messages: languages, conversation: ranked[0] ?? UNDETERMINED, languages: ranked };
    },
  };
}
