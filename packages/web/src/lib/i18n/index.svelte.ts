import { en } from './en';
import { fr, type MessageKey, type Messages } from './fr';

/**
 * The message catalogue. Adding a language is one file (a `Messages` object) plus one line here;
 * the type checker refuses a file with a missing key.
 */
export const CATALOGUES: Record<string, Messages> = { fr, en };
export const DEFAULT_LOCALE = 'fr';
const STORAGE_KEY = 'agora.locale';

/** The first supported language of the browser's list, else French. */
export function pickLocale(preferred: readonly string[], supported: readonly string[] = Object.keys(CATALOGUES)): string {
  for (const tag of preferred) {
    const base = tag.toLowerCase().split('-')[0]!;
    if (supported.includes(base)) return base;
  }
  return DEFAULT_LOCALE;
}

class I18n {
  locale = $state(DEFAULT_LOCALE);

  init(): void {
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(STORAGE_KEY);
    } catch {
      // Storage refused: the browser's languages decide.
    }
    this.set(stored && CATALOGUES[stored] ? stored : pickLocale(navigator.languages ?? [navigator.language]), false);
  }

  set(locale: string, remember = true): void {
    if (!CATALOGUES[locale]) return;
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
    const template = CATALOGUES[this.locale]?.[key] ?? fr[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };

  number(value: number, digits = 0): string {
    return new Intl.NumberFormat(this.locale, { maximumFractionDigits: digits, minimumFractionDigits: 0 }).format(value);
  }
}

export const i18n = new I18n();
export const t = i18n.t;
export type { MessageKey };
