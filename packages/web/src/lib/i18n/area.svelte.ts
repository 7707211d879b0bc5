import { i18n } from './index.svelte';

/** An area's messages in one language, keyed like its French file. */
type AreaMessages<Key extends string> = Record<Key, string>;

/**
 * The messages of one area of the interface (model pages, the survey, turn verdicts…), one chunk
 * per language fetched by the components that use them: the main catalogues are part of the arena
 * route's JavaScript budget (docs/arena.md), an area's are not. Components render their words
 * only once `ready`, so that no key ever shows.
 */
export class AreaI18n<Key extends string> {
  /** The messages of `locale`, once loaded. */
  messages = $state.raw<AreaMessages<Key> | null>(null);
  locale = $state('');

  /** `loaders` by language code; French, the catalogues' reference, for any other. */
  constructor(private readonly loaders: Record<'fr' | 'en' | 'da' | 'sv' | 'lt', () => Promise<AreaMessages<Key>>>) {}

  /** Loads the interface language's messages; a later call for another language wins. */
  async load(locale: string): Promise<void> {
    const loader = this.loaders[locale as 'fr'] ?? this.loaders.fr;
    const messages = await loader();
    if (i18n.locale !== locale) return;
    this.messages = messages;
    this.locale = locale;
  }

  /** The message in the loaded language, `{name}` placeholders filled in. */
  t = (key: Key, params: Record<string, string | number> = {}): string => {
    const template = this.messages?.[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
  };

  /** Whether the messages of the interface's current language are in. */
  get ready(): boolean {
    return this.messages !== null && this.locale === i18n.locale;
  }
}
