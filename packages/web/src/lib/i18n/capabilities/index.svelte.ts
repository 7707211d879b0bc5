import { i18n } from '../index.svelte';
import type { fr } from './fr';

export type CapabilityMessageKey = keyof typeof fr;
type CapabilityMessages = Record<CapabilityMessageKey, string>;

/**
 * The capabilities area's messages (the leaderboard's capability filter), one chunk per language
 * fetched by the leaderboard page only: the main catalogues count in the arena route's JavaScript
 * budget (docs/arena.md), these do not.
 */
const LOADERS: Record<string, () => Promise<CapabilityMessages>> = {
  fr: () => import('./fr').then((module) => module.fr),
  en: () => import('./en').then((module) => module.en),
  da: () => import('./da').then((module) => module.da),
  sv: () => import('./sv').then((module) => module.sv),
  lt: () => import('./lt').then((module) => module.lt),
};

class CapabilityI18n {
  /** The messages of `locale`, once loaded (the filter renders only then: no key shows). */
  messages = $state.raw<CapabilityMessages | null>(null);
  locale = $state('');

  /** Loads the interface language's messages; a later call for another language wins. */
  async load(locale: string): Promise<void> {
    const loader = LOADERS[locale] ?? LOADERS.fr!;
    const messages = await loader();
    if (i18n.locale !== locale) return;
    this.messages = messages;
    this.locale = locale;
  }

  /** The message in the loaded language, `{name}` placeholders filled in. */
  t = (key: CapabilityMessageKey, params: Record<string, string | number> = {}): string => {
    const template = this.messages?.[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };

  /** Whether the messages of the interface's current language are in. */
  get ready(): boolean {
    return this.messages !== null && this.locale === i18n.locale;
  }
}

export const capabilityI18n = new CapabilityI18n();
export const ct = capabilityI18n.t;
