import type { ConsoleMessageKey } from './console-areas';
import type { MessageKey as MainMessageKey, Messages } from './fr';

/** A message of the main catalogues, or of the console's (loaded only by the console: `extend`). */
export type MessageKey = MainMessageKey | ConsoleMessageKey;
type Extension = (locale: string) => Promise<Partial<Record<ConsoleMessageKey, string>>>;

/**
 * The languages of the interface. Adding one is one file (a `Messages` object: the type checker
 * refuses a file with a missing key) plus one line here. Each catalogue is its own chunk,
 * downloaded when its language is chosen: a visitor loads one catalogue, not all of them.
 */
export const LANGUAGES: Record<string, { name: string; load: () => Promise<Messages> }> = {
  fr: { name: 'Français', load: () => import('./fr').then((module) => module.fr) },
  en: { name: 'English', load: () => import('./en').then((module) => module.en) },
  da: { name: 'Dansk', load: () => import('./da').then((module) => module.da) },
  sv: { name: 'Svenska', load: () => import('./sv').then((module) => module.sv) },
  lt: { name: 'Lietuvių', load: () => import('./lt').then((module) => module.lt) },
};
export const DEFAULT_LOCALE = 'fr';
const STORAGE_KEY = 'agora.locale';

/** The first supported language of the browser's list, else French. */
export function pickLocale(preferred: readonly string[], supported: readonly string[] = Object.keys(LANGUAGES)): string {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0]!;
    if (supported.includes(base)) return base;
  }
  return DEFAULT_LOCALE;
}

class I18n {
  locale = $state(DEFAULT_LOCALE);
  private messages = $state.raw<Messages | null>(null);
  /** Messages of a part of the app loaded on demand (the console's), in the current language. */
  private extension = $state.raw<Partial<Record<ConsoleMessageKey, string>> | null>(null);
  private extensionLoader: Extension | undefined;

  /** Adds a part's messages (the console's) in this language and in every language chosen after. */
  async extend(loader: Extension): Promise<void> {
    this.extensionLoader = loader;
    this.extension = await loader(this.locale);
  }

  /** Picks the visitor's language (their earlier choice, else the browser's) and loads it; the app renders after. */
  async init(): Promise<void> {
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(STORAGE_KEY);
    } catch {
      // Storage refused: the browser's languages decide.
    }
    await this.set(stored && LANGUAGES[stored] ? stored : pickLocale(navigator.languages ?? [navigator.language]), false);
  }

  /** Switches the whole interface to `locale` once its catalogue has arrived (no reload, no half-translated page). */
  async set(locale: string, remember = true): Promise<void> {
    const language = LANGUAGES[locale];
    if (!language) return;
    const [messages, extension] = await Promise.all([language.load(), this.extensionLoader?.(locale)]);
    this.messages = messages;
    if (extension) this.extension = extension;
    this.locale = locale;
    document.documentElement.lang = locale;
    if (remember) {
      try {
        localStorage.setItem(STORAGE_KEY, locale);
      } catch {
        // Storage refused: the choice lasts for this page only.
      }
    }
  }

  /** The message in the current locale, `{name}` placeholders filled in. */
  t = (key: MessageKey, params: Record<string, string | number> = {}): string => {
    const template = this.messages?.[key as MainMessageKey] ?? this.extension?.[key as ConsoleMessageKey] ?? key;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };

  number(value: number, digits = 0): string {
    return new Intl.NumberFormat(this.locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
  }
}

export const i18n = new I18n();
export const t = i18n.t;
