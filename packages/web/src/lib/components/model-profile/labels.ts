import type { ProfileRating } from '@agora/contract';
import { i18n, t } from '$lib/i18n/index.svelte';
import { pt } from '$lib/i18n/model-profiles/index.svelte';
import { ct, type CapabilityMessageKey } from '$lib/i18n/capabilities/index.svelte';

const MODES = ['random', 'custom', 'small-models', 'big-vs-small', 'reasoning'];

/** A language code in the interface's language (the code itself when the browser cannot name it). */
export function languageName(code: string): string {
  try {
    return new Intl.DisplayNames([i18n.locale], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** A view's name: overall, a language, a mode, a topic or a capability (style control has its own column). */
export function viewLabel(view: ProfileRating['view']): string {
  if (view.capability) return pt('profile.view.capability', { value: ct(`capability.${view.capability}` as CapabilityMessageKey) });
  return view.language
    ? pt('profile.view.language', { value: languageName(view.language) })
    : view.mode
      ? pt('profile.view.mode', { value: MODES.includes(view.mode) ? t(`arena.mode.${view.mode as 'random'}`) : view.mode })
      : view.category
        ? pt('profile.view.category', { value: view.category })
        : pt('profile.view.overall');
}

/** A tag's words (the arena's chips), the id itself for a tag the arena does not offer (imports). */
export function tagName(tag: string): string {
  const key = `tag.${tag}` as 'tag.useful';
  const words = t(key);
  return words === key ? tag : words;
}

/** A rating with its interval: 1 012 (998–1 027). */
export function ratingText(entry: Pick<ProfileRating, 'rating' | 'ci_low' | 'ci_high'>): string {
  return `${i18n.number(entry.rating)} (${i18n.number(entry.ci_low)}–${i18n.number(entry.ci_high)})`;
}
