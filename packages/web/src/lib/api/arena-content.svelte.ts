import type { ArenaContent, ContentSuggestion, Tag } from '@agora/contract';
import { request } from './client';

/**
 * The vote tags and prompt suggestions an admin stored for the visitor's language
 * (`GET /api/v1/content/arena`). Until it answers, and when nothing is stored or the server does
 * not answer, the arena shows its built-in ones (the catalogues): the arena never waits for this.
 */
class ArenaContentStore {
  current = $state.raw<ArenaContent | null>(null);
  private asked: string | undefined;

  load(locale: string): void {
    if (this.asked === locale) return;
    this.asked = locale;
    request<ArenaContent>('GET', `/api/v1/content/arena?locale=${encodeURIComponent(locale)}`).then(
      (content) => this.asked === locale && (this.current = content),
      () => this.asked === locale && (this.current = null),
    );
  }

  /** The tags to offer among `builtIn` (a like's or a dislike's), in the admin's order when a list is stored. */
  tags(builtIn: readonly Tag[], locale: string): readonly Tag[] {
    const stored = this.current?.locale === locale ? this.current.tags : null;
    return stored ? stored.map((entry) => entry.tag).filter((tag) => builtIn.includes(tag)) : builtIn;
  }

  /** The stored label of a tag, if the admin wrote one for this language. */
  label(tag: Tag, locale: string): string | undefined {
    return this.current?.locale === locale ? this.current.tags?.find((entry) => entry.tag === tag)?.label : undefined;
  }

  suggestions(locale: string): readonly ContentSuggestion[] | null {
    return this.current?.locale === locale ? this.current.suggestions : null;
  }
}

export const arenaContent = new ArenaContentStore();
