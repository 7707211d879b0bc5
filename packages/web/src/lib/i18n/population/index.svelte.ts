import { i18n } from '../index.svelte';
import type { fr } from './fr';

export type PopulationMessageKey = keyof typeof fr;
type PopulationMessages = Record<PopulationMessageKey, string>;

/**
 * The population survey's and weighted board's messages, one chunk per language, fetched by the
 * survey panel (itself fetched after a vote) and the leaderboard page only: the arena route's
 * JavaScript budget (docs/arena.md) does not carry them.
 */
const LOADERS: Record<string, () => Promise<PopulationMessages>> = {
  fr: () => import('./fr').then((module) => module.fr),
  en: () => import('./en').then((module) => module.en),
  da: () => import('./da').then((module) => module.da),
  sv: () => import('./sv').then((module) => module.sv),
  lt: () => import('./lt').then((module) => module.lt),
};

class PopulationI18n {
  /** The messages of `locale`, once loaded (the panel renders only then: no key shows). */
  messages = $state.raw<PopulationMessages | null>(null);
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
  t = (key: PopulationMessageKey, params: Record<string, string | number> = {}): string => {
    const template = this.messages?.[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };

  /** Whether the messages of the interface's current language are in. */
  get ready(): boolean {
    return this.messages !== null && this.locale === i18n.locale;
  }
}

export const populationI18n = new PopulationI18n();
export const pt = populationI18n.t;
