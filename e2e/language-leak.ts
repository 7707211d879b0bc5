import type { Page } from 'playwright-core';
import { createLanguageDetector } from '../packages/server/src/adapters/language-detector';
import { TEST_MODELS } from '../packages/server/test/test-arena';
import { da } from '../packages/web/src/lib/i18n/da';
import { en } from '../packages/web/src/lib/i18n/en';
import { fr } from '../packages/web/src/lib/i18n/fr';
import { lt } from '../packages/web/src/lib/i18n/lt';
import { sv } from '../packages/web/src/lib/i18n/sv';
import { da as verdictDa } from '../packages/web/src/lib/i18n/turn-verdicts/da';
import { en as verdictEn } from '../packages/web/src/lib/i18n/turn-verdicts/en';
import { fr as verdictFr } from '../packages/web/src/lib/i18n/turn-verdicts/fr';
import { lt as verdictLt } from '../packages/web/src/lib/i18n/turn-verdicts/lt';
import { sv as verdictSv } from '../packages/web/src/lib/i18n/turn-verdicts/sv';

/**
 * The language-leak judge of e2e/language-leak.test.ts: which visible strings of a page are in
 * another interface language than the page's. Three witnesses, each able to convict alone:
 * - the other catalogues: a string that is a message of another language (placeholders as
 *   wildcards) and of none of the page's, or a sentence the page's catalogue left in English;
 * - a real language identification (the server's CLD2 + eld detector) on strings long enough to
 *   identify, corroborated by one function word of the detected language at least, and not
 *   outweighed by the page language's own (Danish and Swedish, close cousins, are told apart by
 *   their words; a few shared nouns such as "video" do not convict);
 * - word lists: two function words of another language and none of the page's.
 * Proper nouns, units and commands (ALLOWED) are removed first; model answers and visitors' prompts
 * are content, not interface, and code (`<code>`, `<pre>`: dataset names, commands, snippets) is not
 * prose: none of them is read.
 */

export const LOCALES = ['fr', 'en', 'da', 'sv', 'lt'] as const;
export type Locale = (typeof LOCALES)[number];
/**
 * Each language's main catalogue and the areas loaded apart from it (the turn verdicts'). Not the model
 * pages' words: their skeletons (`{a} mod {b}`) leave a few letters that match any sentence holding them
 * ("modèles"); the detectors and word lists judge those pages.
 */
const CATALOGUES: Record<Locale, Record<string, string>> = {
  fr: { ...fr, ...verdictFr },
  en: { ...en, ...verdictEn },
  da: { ...da, ...verdictDa },
  sv: { ...sv, ...verdictSv },
  lt: { ...lt, ...verdictLt },
};

/** Names and symbols that are the same in every language. */
export const ALLOWED = [
  ...TEST_MODELS.flatMap((model) => [model.name, model.organisation, model.id]),
  'Agora',
  'compar:IA',
  'EcoLogits',
  'GenAI Impact',
  'ADEME',
  'Impact CO2',
  'Bradley–Terry',
  'LMArena',
  'Chatbot Arena',
  'axe-core',
  'WCAG',
  'Hugging Face',
  // Model providers, named the same in every language (the console's list of configured providers).
  'Anthropic',
  'OpenAI',
  'DuckDB',
  'Parquet',
  'JSONL',
  'JSON',
  'CSV',
  'Apache 2.0',
  'MIT',
  'agora models pull',
  'npm run demo',
  'AGORA_MODELS',
  'MISSING_KEY',
  'gCO₂e',
  'gCO2e',
  'CO₂e',
  'CO2e',
  'CO₂',
  'kWh',
  'Wh',
  'PUE',
  'GPU',
  'LED',
  'HD',
  'Wi-Fi',
  'wifi',
  'E14',
  'A–E',
];

/** Function words that one interface language uses and the others do not (shared ones such as `en`, `de`, `i`, `med` left out). */
const WORDS: Record<Locale, ReadonlySet<string>> = {
  en: new Set(
    'the of and to is are your you with not this that from by be has have was will can it its an which when what how there'.split(' '),
  ),
  fr: new Set(
    'le la les des du une est sont vous votre vos pour avec dans pas sur qui que ce cette aux au et ou ne plus été être'.split(' '),
  ),
  da: new Set('og ikke af er hvad hvor efter blev være også kun nogle mellem dine dit jeres når hver sådan til fra'.split(' ')),
  sv: new Set('och inte för är att hur vad också bara någon mellan dina ditt när varje sådan till från'.split(' ')),
  lt: new Set('ir yra kad su jūsų nėra arba į iš kai kuris kuri ar bet tai jei kaip dar po nuo apie tik kuo'.split(' ')),
};

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A message as a pattern: its `{placeholders}` match anything. */
const pattern = (message: string) =>
  new RegExp(
    `^${message
      .split(/\{\w+\}/)
      .map((part) => escape(normalise(part)))
      .join('.+?')}$`,
    'su',
  );
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

const PATTERNS = Object.fromEntries(
  LOCALES.map((locale) => [
    locale,
    Object.values(CATALOGUES[locale]).map((message) => ({ message: normalise(message), regex: pattern(message) })),
  ]),
) as Record<Locale, { message: string; regex: RegExp }[]>;

/** Whether `text` is a message of `locale`'s catalogue, whole (placeholders filled) or, split by markup, a piece of one. */
function messageOf(text: string, locale: Locale, pieces: boolean): string | undefined {
  for (const { message, regex } of PATTERNS[locale]) {
    if (message === text || regex.test(text)) return message;
    if (pieces && text.length >= 4 && message.includes(text)) return message;
  }
  return undefined;
}

/** The text without the allowed names, numbers and punctuation: the words left to judge. */
function wordsOf(text: string): string[] {
  let rest = text;
  for (const name of [...ALLOWED].sort((a, b) => b.length - a.length)) rest = rest.replaceAll(name, ' ');
  return rest.match(/\p{L}[\p{L}'’-]*/gu) ?? [];
}

function wordCounts(words: readonly string[]): Record<Locale, number> {
  const lower = words.map((word) => word.toLowerCase());
  return Object.fromEntries(LOCALES.map((locale) => [locale, lower.filter((word) => WORDS[locale].has(word)).length])) as Record<
    Locale,
    number
  >;
}

const detector = createLanguageDetector();

/** Why `text` is not in `locale` (the witness and the language it is in), or undefined when nothing says so. */
export async function leakOf(text: string, locale: Locale): Promise<string | undefined> {
  const words = wordsOf(text);
  if (words.length === 0) return undefined;
  const own = messageOf(text, locale, true);
  if (own !== undefined) {
    // The page's own catalogue: a leak only when it is a sentence left in English.
    const english = locale !== 'en' && words.length >= 3 && messageOf(own, 'en', false) === own;
    return english ? 'catalogue:en (untranslated)' : undefined;
  }
  for (const other of LOCALES) if (other !== locale && messageOf(text, other, false) !== undefined) return `catalogue:${other}`;
  const counts = wordCounts(words);
  const letters = words.join('').length;
  if (words.length >= 2) {
    const detected = (await detector.detect(words.join(' '))) as Locale;
    // Corroborated by at least one function word of the language found (a few nouns alone, "time", "video", mislead it),
    // and, on a short string, by none of the page's language.
    const corroborated = counts[detected] >= Math.max(1, counts[locale]) && (letters >= 20 || counts[locale] === 0);
    if (detected !== locale && LOCALES.includes(detected) && corroborated) return `detected:${detected}`;
  }
  const louder = LOCALES.find((other) => other !== locale && counts[other] >= 2 && counts[locale] === 0);
  return louder ? `words:${louder}` : undefined;
}

/**
 * Every string a visitor can see or hear on the page: text nodes, the title, and the labels screen
 * readers read (aria-label, title, placeholder, alt). Not read: model answers and prompts (content),
 * code, the language picker's names (each in its own language, on purpose), scripts and styles.
 */
export function visibleStrings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const content =
      'script, style, noscript, template, code, pre, kbd, samp, option[lang], [data-testid^="answer-"], .you, [data-content], .reasoning';
    const strings = new Set<string>([document.title]);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      if (text && node.parentElement && !node.parentElement.closest(content)) strings.add(text);
    }
    for (const element of document.body.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
      if (element.closest(content)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
        const value = element.getAttribute(name)?.replace(/\s+/g, ' ').trim();
        if (value) strings.add(value);
      }
    }
    return [...strings];
  });
}

/** The strings of the page that are not in `locale`, with their witness: `["Your vote counts" (catalogue:en)]`. */
export async function leaksOn(page: Page, locale: Locale): Promise<string[]> {
  const leaks: string[] = [];
  for (const text of await visibleStrings(page)) {
    const witness = await leakOf(text, locale);
    if (witness) leaks.push(`${JSON.stringify(text.slice(0, 120))} (${witness})`);
  }
  return leaks;
}
