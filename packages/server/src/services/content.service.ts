import {
  type ArenaContent,
  type ContentLocale,
  type ContentOverview,
  type ContentPage,
  type ContentPageSource,
  type ContentSuggestion,
  type ContentTag,
  type SitePageName,
  sitePageNameSchema,
} from '@agora/contract';
import { type ConsoleContentRow, decodeContentList } from '../db/repositories/console-content.repository';
import type { Store } from '../db/unit-of-work';
import { AppError } from './app-error';
import type { Runtime } from './ports/runtime';
import type { SitePageSource } from './ports/site-pages';

/**
 * How long an instance serves a stored text before reading it again: a text saved on another
 * instance shows here within this time (the saving instance forgets its copy at once). Each read
 * is one primary-key lookup, so a short time costs little.
 */
export const CONTENT_TTL_MS = 2_000;

type ListKind = 'tags' | 'suggestions';

export interface ContentSources {
  /** AGORA_PAGES_DIR's pages when the operator set it: then they win and the console only reads pages. */
  folder: SitePageSource | undefined;
  /** Agora's own texts (adapters/site-pages). */
  bundled: SitePageSource;
}

/** Who saves, for the row's `updated_by`: the console member's e-mail or `admin-token`, never a name from the request. */
export interface ContentAuthor {
  name: string;
}

/**
 * The arena's texts an admin edits in the console (docs/operations.md#content): vote tags and prompt
 * suggestions per language (a stored list replaces the built-in one of its language; reset removes
 * it) and the site pages per language (between the operator's folder and the bundled texts).
 */
export class ContentService {
  private readonly cache = new Map<string, { row: ConsoleContentRow | undefined; at: number }>();

  constructor(
    private readonly store: Store,
    private readonly runtime: Runtime,
    private readonly sources: ContentSources,
    private readonly now: () => number = Date.now,
  ) {}

  /** The page source the public site reads between the folder and the bundled texts (absent when the folder is set). */
  readonly storedPage: SitePageSource = async (name, locale) => (await this.cached('page', name, locale))?.body;

  /** What the arena shows in `locale`: the stored lists, null where the built-in one applies. */
  async arena(locale: ContentLocale): Promise<ArenaContent> {
    const [tags, suggestions] = await Promise.all([this.cached('tags', '', locale), this.cached('suggestions', '', locale)]);
    return {
      locale,
      tags: tags ? decodeContentList<ContentTag>(tags.body) : null,
      suggestions: suggestions ? decodeContentList<ContentSuggestion>(suggestions.body) : null,
    };
  }

  /** One language in the console: its stored lists, and where each page's text comes from. */
  async overview(locale: ContentLocale): Promise<ContentOverview> {
    const [tags, suggestions, keys] = await Promise.all([
      this.store.consoleContent.findList<ContentTag>('tags', locale),
      this.store.consoleContent.findList<ContentSuggestion>('suggestions', locale),
      this.store.consoleContent.listKeys(),
    ]);
    const pages = await Promise.all(
      sitePageNameSchema.options.map(async (name) => {
        const stored = keys.find((key) => key.kind === 'page' && key.name === name && key.locale === locale);
        const source = await this.sourceOf(name, locale, stored !== undefined);
        return { name, source, updated_at: source === 'stored' ? (stored?.updated_at ?? null) : null };
      }),
    );
    return { locale, tags: tags ?? null, suggestions: suggestions ?? null, pages_read_only: this.readOnly, pages };
  }

  async saveList(
    kind: ListKind,
    locale: ContentLocale,
    items: readonly ContentTag[] | readonly ContentSuggestion[],
    author: ContentAuthor,
  ) {
    await this.store.consoleContent.saveList(kind, locale, items, { at: this.runtime.now().toISOString(), actor: author.name });
    this.forget(kind, '', locale);
  }

  /** Back to the built-in list; whether a stored one was removed. */
  async resetList(kind: ListKind, locale: ContentLocale): Promise<boolean> {
    const removed = await this.store.consoleContent.remove({ kind, name: '', locale });
    this.forget(kind, '', locale);
    return removed;
  }

  /** The page's text in exactly `locale` (no fallback: the console edits one language at a time) and its source. */
  async page(name: SitePageName, locale: ContentLocale): Promise<ContentPage> {
    const folderText = this.sources.folder ? await this.sources.folder(name, locale) : undefined;
    const stored = this.readOnly ? undefined : await this.store.consoleContent.find({ kind: 'page', name, locale });
    const bundledText = folderText === undefined && !stored ? await this.sources.bundled(name, locale) : undefined;
    const source: ContentPageSource =
      folderText !== undefined ? 'folder' : stored ? 'stored' : bundledText !== undefined ? 'bundled' : 'none';
    return {
      name,
      locale,
      markdown: folderText ?? stored?.body ?? bundledText ?? '',
      source,
      read_only: this.readOnly,
      updated_at: stored?.updated_at ?? null,
      updated_by: stored?.updated_by ?? null,
    };
  }

  async savePage(name: SitePageName, locale: ContentLocale, markdown: string, author: ContentAuthor): Promise<ContentPage> {
    this.refuseWhenReadOnly();
    await this.store.consoleContent.save({
      kind: 'page',
      name,
      locale,
      body: markdown,
      updated_at: this.runtime.now().toISOString(),
      updated_by: author.name,
    });
    this.forget('page', name, locale);
    return this.page(name, locale);
  }

  /** Back to the bundled text (or none: the legal notice has no bundled text, so the footer stops linking it). */
  async resetPage(name: SitePageName, locale: ContentLocale): Promise<boolean> {
    this.refuseWhenReadOnly();
    const removed = await this.store.consoleContent.remove({ kind: 'page', name, locale });
    this.forget('page', name, locale);
    return removed;
  }

  /** With AGORA_PAGES_DIR set the folder is the operator's only source of pages: the console shows them, read-only. */
  get readOnly(): boolean {
    return this.sources.folder !== undefined;
  }

  private refuseWhenReadOnly(): void {
    if (this.readOnly) throw new AppError('content_read_only', 'AGORA_PAGES_DIR is set: the pages come from that folder, edit them there');
  }

  private async sourceOf(name: SitePageName, locale: string, stored: boolean): Promise<ContentPageSource> {
    if (this.sources.folder && (await this.sources.folder(name, locale)) !== undefined) return 'folder';
    if (stored && !this.readOnly) return 'stored';
    return (await this.sources.bundled(name, locale)) !== undefined ? 'bundled' : 'none';
  }

  private async cached(kind: string, name: string, locale: string): Promise<ConsoleContentRow | undefined> {
    const key = `${kind}/${name}/${locale}`;
    const hit = this.cache.get(key);
    if (hit && this.now() - hit.at < CONTENT_TTL_MS) return hit.row;
    const row = await this.store.consoleContent.find({ kind, name, locale });
    this.cache.set(key, { row, at: this.now() });
    return row;
  }

  private forget(kind: string, name: string, locale: string): void {
    this.cache.delete(`${kind}/${name}/${locale}`);
  }
}
