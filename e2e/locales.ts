import { da } from '../packages/web/src/lib/i18n/da';
import { en } from '../packages/web/src/lib/i18n/en';
import { fr, type Messages } from '../packages/web/src/lib/i18n/fr';
import { lt } from '../packages/web/src/lib/i18n/lt';
import { sv } from '../packages/web/src/lib/i18n/sv';
import { CONSOLE_MESSAGES, type ConsoleMessages } from '../packages/web/src/lib/i18n/console-areas';
import { DESKTOP, PHONE } from './harness';

/** A language's messages: the main catalogue's and the console's (loaded by the console only). */
type AllMessages = Messages & ConsoleMessages;
/** The interface's catalogues by language code: what a page in that language may say. */
export const CATALOGUES: Record<string, AllMessages> = {
  fr: { ...fr, ...CONSOLE_MESSAGES.fr },
  en: { ...en, ...CONSOLE_MESSAGES.en },
  da: { ...da, ...CONSOLE_MESSAGES.da },
  sv: { ...sv, ...CONSOLE_MESSAGES.sv },
  lt: { ...lt, ...CONSOLE_MESSAGES.lt },
};
/** The browser locales the e2e tests visit in, one per interface language. */
export const LOCALES = ['fr-FR', 'en-GB', 'da-DK', 'sv-SE', 'lt-LT'] as const;
/** The two widths every new screen is checked at. */
export const VIEWPORTS = [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const;

/** The catalogue of a browser locale (`da-DK` → Danish). */
export function catalogueOf(locale: string): AllMessages {
  return CATALOGUES[locale.slice(0, 2)]!;
}

/** A catalogue message with its `{name}` placeholders filled in, as the page's `t` does. */
export function message(messages: Messages | AllMessages, key: keyof AllMessages, params: Record<string, string | number> = {}): string {
  const template = (messages as Partial<AllMessages>)[key];
  if (template === undefined) throw new Error(`no message ${key} in this catalogue`);
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
