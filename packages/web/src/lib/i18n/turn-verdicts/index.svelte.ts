import { i18n } from '../index.svelte';
import type { fr } from './fr';

export type VerdictMessageKey = keyof typeof fr;
type VerdictMessages = Record<VerdictMessageKey, string>;

/**
 * The turn-verdicts area’s messages, one chunk per language fetched with the verdict control only (itself a chunk of its own): the
 * main catalogues are part of the arena route's JavaScript budget (docs/arena.md), these are not.
 */
const LOADERS: Record<string, () => Promise<VerdictMessages>> = {
  fr: () => import('./fr').then((module) => module.fr),
  en: () => import('./en').then((module) => module.en),
  da: () => import('./da').then((module) => module.da),
  sv: () => import('./sv').then((module) => module.sv),
  lt: () => import('./lt').then((module) => module.lt),
};

class VerdictI18n {
  /** The messages of `locale`, once loaded (pages render their sections only then: no key shows). */
  messages = $state.raw<VerdictMessages | null>(null);
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
  t = (key: VerdictMessageKey, params: Record<string, string | number> = {}): string => {
    const template = this.messages?.[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };

  /** Whether the messages of the interface's current language are in. */
  get ready(): boolean {
    return this.messages !== null && this.locale === i18n.locale;
  }
}

export const verdictI18n = new VerdictI18n();
export const vt = verdictI18n.t;
