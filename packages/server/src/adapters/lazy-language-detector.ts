import type { LanguageDetector } from './language-detector';

/**
 * The language detector, loaded on its first use: its n-gram tables take about 190 MB, which an
 * arena server that does not post-process (or has not yet) has no use for.
 */
export function lazyLanguageDetector(): LanguageDetector {
  let loading: Promise<LanguageDetector> | undefined;
  const load = () => (loading ??= import('./language-detector').then((language) => language.createLanguageDetector()));
  return {
    detect: async (text) => (await load()).detect(text),
    detectConversation: async (messages) => (await load()).detectConversation(messages),
  };
}
