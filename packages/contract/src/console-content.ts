import { z } from 'zod';
import { hasVisibleCharacter, tagSchema, typedTextSchema } from './duels';
import { INTERFACE_LOCALES } from './locales';
import { sitePageNameSchema } from './models';

/**
 * The arena's content an admin edits in the console (`/admin/content`): the vote tags' labels and the
 * prompt suggestions per language, and the site's pages per language. Nothing stored: the arena
 * shows its built-in texts (the web catalogues, the bundled pages). A stored list replaces the
 * built-in one for its language as a whole.
 */
export const contentLocaleSchema = z.enum(INTERFACE_LOCALES);
export type ContentLocale = z.infer<typeof contentLocaleSchema>;

/** A short text a person typed: no control character, no broken Unicode, something visible, trimmed. */
const shortTextSchema = (max: number) =>
  typedTextSchema.pipe(
    z
      .string()
      .trim()
      .min(1)
      .max(max)
      .refine(hasVisibleCharacter, 'has no visible character')
      .refine((text) => !/[\r\n]/.test(text), 'is one line'),
  );

/** The chips a voter may tick: which of compar:IA's tags (the ids stay fixed: the datasets count them), in which order, under which words. */
export const MAX_TAG_LABEL_CHARS = 40;
export const contentTagSchema = z.strictObject({ tag: tagSchema, label: shortTextSchema(MAX_TAG_LABEL_CHARS) });
export type ContentTag = z.infer<typeof contentTagSchema>;
export const contentTagListSchema = z
  .array(contentTagSchema)
  .min(1)
  .max(tagSchema.options.length)
  .refine((tags) => new Set(tags.map((entry) => entry.tag)).size === tags.length, 'a tag appears once');

/** The suggestion cards' categories: their titles stay in the web catalogues. */
export const suggestionCategorySchema = z.enum(['learn', 'write', 'code', 'daily']);
export type SuggestionCategory = z.infer<typeof suggestionCategorySchema>;
export const MAX_SUGGESTION_CHARS = 300;
export const MAX_SUGGESTIONS = 40;
export const contentSuggestionSchema = z.strictObject({
  category: suggestionCategorySchema,
  text: shortTextSchema(MAX_SUGGESTION_CHARS),
});
export type ContentSuggestion = z.infer<typeof contentSuggestionSchema>;
export const contentSuggestionListSchema = z
  .array(contentSuggestionSchema)
  .min(1)
  .max(MAX_SUGGESTIONS)
  .refine((list) => new Set(list.map((entry) => `${entry.category}\u0000${entry.text}`)).size === list.length, 'a suggestion appears once');

/** `PUT /api/v1/admin/content/tags/{locale}` */
export const contentTagsRequestSchema = z.strictObject({ tags: contentTagListSchema });
/** `PUT /api/v1/admin/content/suggestions/{locale}` */
export const contentSuggestionsRequestSchema = z.strictObject({ suggestions: contentSuggestionListSchema });

/** `GET /api/v1/content/arena?locale=xx`: what the arena shows in that language; null: its built-in list. */
export const arenaContentSchema = z.object({
  locale: contentLocaleSchema,
  tags: z.array(contentTagSchema).nullable(),
  suggestions: z.array(contentSuggestionSchema).nullable(),
});
export type ArenaContent = z.infer<typeof arenaContentSchema>;
/** `?locale=xx` of the arena's content and of the console's overview. */
export const contentLocaleQuerySchema = z.strictObject({ locale: contentLocaleSchema });

/** A site page's Markdown as the console saves it: up to 100,000 characters (the bundled pages are under 10,000). */
export const MAX_PAGE_MARKDOWN_CHARS = 100_000;
export const contentPageRequestSchema = z.strictObject({
  markdown: typedTextSchema.pipe(z.string().max(MAX_PAGE_MARKDOWN_CHARS).refine(hasVisibleCharacter, 'has no visible character')),
});
export const contentPageParamSchema = z.strictObject({ name: sitePageNameSchema, locale: contentLocaleSchema });
export const contentLocaleParamSchema = z.strictObject({ locale: contentLocaleSchema });

/** Where the text the public page serves comes from: the operator's folder, the console's store, Agora's bundled text, or nowhere. */
export const contentPageSourceSchema = z.enum(['folder', 'stored', 'bundled', 'none']);
export type ContentPageSource = z.infer<typeof contentPageSourceSchema>;

/** `GET /api/v1/admin/content/pages/{name}/{locale}`: the page's text in exactly that language, and whether the console may change it. */
export const contentPageSchema = z.object({
  name: sitePageNameSchema,
  locale: contentLocaleSchema,
  markdown: z.string(),
  source: contentPageSourceSchema,
  /** True when AGORA_PAGES_DIR is set: the operator's folder wins, the console only reads. */
  read_only: z.boolean(),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});
export type ContentPage = z.infer<typeof contentPageSchema>;

/** `GET /api/v1/admin/content?locale=xx`: the stored lists of one language (null: the built-in ones), and its pages. */
export const contentOverviewSchema = z.object({
  locale: contentLocaleSchema,
  tags: z.array(contentTagSchema).nullable(),
  suggestions: z.array(contentSuggestionSchema).nullable(),
  pages_read_only: z.boolean(),
  pages: z.array(z.object({ name: sitePageNameSchema, source: contentPageSourceSchema, updated_at: z.string().nullable() })),
});
export type ContentOverview = z.infer<typeof contentOverviewSchema>;
