/**
 * The languages of the interface, in the order the language menu lists them. Every text a visitor
 * reads exists in each of them: the web catalogues, the server's impact texts and the site's pages
 * (docs/languages.md says how to add one).
 */
export const INTERFACE_LOCALES = ['fr', 'en', 'da', 'sv', 'lt'] as const;
export type InterfaceLocale = (typeof INTERFACE_LOCALES)[number];

/** The interface language of a locale tag (`sv-SE` → `sv`), or undefined when the interface does not speak it. */
export function interfaceLocaleOf(tag: string | null | undefined): InterfaceLocale | undefined {
  const base = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return INTERFACE_LOCALES.find((locale) => locale === base);
}
