import type { fr } from './fr';

/** Messages of the console-content area in this language: the keys of the French file, type-checked. */
export const en: Record<keyof typeof fr, string> = {
  'console.content.nav': 'Content',
  'console.content.title': 'Arena content',
  'console.content.intro':
    'The vote tags, the prompt suggestions and the site pages, one language at a time. Until something is saved for a language, the arena shows its built-in texts; a saved list replaces the whole built-in list of its language.',
  'console.content.language': 'Language to edit',
  'console.content.sections': 'Parts of this page',
  'console.content.failed_load': 'The content could not be read. Try again in a moment.',
  'console.content.failed_save': 'Saving failed. Try again in a moment.',
  'console.content.save': 'Save',
  'console.content.reset': 'Back to the built-in text',
  'console.content.saved': 'Saved: visitors see it within a few seconds.',
  'console.content.reset_done': 'Back to the built-in text.',
  'console.content.state.stored': 'List saved in the console: it replaces the built-in list for this language.',
  'console.content.state.built_in': 'Built-in list: nothing is saved for this language.',
  'console.content.tags.title': 'Vote tags',
  'console.content.tags.intro':
    'Tick the tags voters are offered and write their wording (40 characters at most). The tags themselves stay compar:IA’s: the datasets count them.',
  'console.content.tags.caption': 'Tags offered in this language',
  'console.content.tags.column.tag': 'Tag',
  'console.content.tags.column.offered': 'Offered',
  'console.content.tags.column.label': 'Wording shown',
  'console.content.tags.kind.positive': 'positive',
  'console.content.tags.kind.negative': 'negative',
  'console.content.tags.offer': 'Offer “{tag}”',
  'console.content.tags.label_of': 'Wording shown for “{tag}”',
  'console.content.tags.none': 'Tick at least one tag.',
  'console.content.suggestions.title': 'Prompt suggestions',
  'console.content.suggestions.intro':
    'The ideas offered under the prompt box, by category: {max} at most, each at most {chars} characters on one line.',
  'console.content.suggestions.category': 'Category of suggestion {n}',
  'console.content.suggestions.text': 'Suggestion {n}',
  'console.content.suggestions.remove': 'Remove suggestion {n}',
  'console.content.suggestions.remove_short': 'Remove',
  'console.content.suggestions.add': 'Add a suggestion',
  'console.content.pages.title': 'Site pages',
  'console.content.pages.intro':
    'Methodology, terms of use, privacy, legal notice and accessibility, written in Markdown. The preview shows them as visitors will see them.',
  'console.content.pages.read_only':
    'The AGORA_PAGES_DIR folder is configured: its files win over the console, which shows the pages read-only. Edit the files in that folder.',
  'console.content.pages.page': 'Page to edit',
  'console.content.pages.source.stored': 'Text saved in the console on {date} by {who}.',
  'console.content.pages.source.bundled': 'Built-in text shipped with Agora: nothing is saved for this language.',
  'console.content.pages.source.folder': 'Text from the AGORA_PAGES_DIR folder.',
  'console.content.pages.source.none': 'No text in this language. Once saved, the page appears in the site’s footer.',
  'console.content.pages.editor': 'Text of the page “{page}” (Markdown)',
  'console.content.pages.hint': 'Headings with #, lists with -, links with [text](address). HTML is shown as it is, never interpreted.',
  'console.content.pages.preview': 'Preview',
};
