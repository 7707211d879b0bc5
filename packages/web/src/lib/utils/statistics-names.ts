import { i18n, t, type MessageKey } from '$lib/i18n/index.svelte';

// What the statistics pages (the public one and the console's activity) call languages, topics and
// modes, in the reader's language: one wording for both.

/** A language code's name in the reader's language (Intl.DisplayNames); `und` is the unknown language. */
export function languageName(code: string): string {
  if (code === 'und') return t('open.datasets.language_unknown');
  try {
    return new Intl.DisplayNames([i18n.locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A topic of the annotation model as the public pages word it (its id when the catalogue has no label). */
export function topicName(topic: string): string {
  const key = `open.topic.${topic}` as MessageKey;
  const label = t(key);
  return label === key ? topic : label;
}

/** A duel mode as the arena's picker words it. */
export function modeName(mode: string): string {
  const key = `arena.mode.${mode}` as MessageKey;
  const label = t(key);
  return label === key ? mode : label;
}
