/**
 * Detects replies that name their own model or vendor ("I am Claude, made by Anthropic", "我是通义千问").
 * The text is never altered (visitors see what the model wrote); the vote of such a duel is stored
 * with `identity_leak` so the leaderboard can leave it out, since the visitor was no longer blind.
 */

/** The catalogue facts the lexicon is built from. */
export interface IdentityFacts {
  id: string;
  name: string;
  organisation: string;
  aliases?: readonly string[];
}

/** Compiled patterns for one model. */
export interface IdentityLexicon {
  /** Names distinctive enough to count wherever they appear. */
  strong: RegExp | null;
  /** Everyday words that are also names (Claude, Mistral, Meta, Gemini…): they count only in a self-introduction. */
  weak: RegExp | null;
}

/**
 * Names that are also ordinary words or first names in the languages we serve. Alone they prove
 * nothing ("le mistral souffle", "Claude est parti"), so they need a self-introduction cue nearby.
 */
const AMBIGUOUS_NAMES = new Set([
  'meta',
  'google',
  'mistral',
  'claude',
  'gemini',
  'phi',
  'command',
  'microsoft',
  'amazon',
  'apple',
  'nova',
  'jamba',
  'grok',
  'falcon',
  'olmo',
  'granite',
  'aya',
  'lucie',
  'pixtral',
  'magistral',
]);

/** Names a vendor's models use in other scripts and languages, keyed by lowercase organisation. */
const ORGANISATION_ALIASES: Record<string, readonly string[]> = {
  alibaba: ['通义千问', '通义', 'Tongyi', '阿里巴巴', '阿里云', 'Qwen'],
  'alibaba cloud': ['通义千问', '通义', 'Tongyi', '阿里巴巴', '阿里云', 'Qwen'],
  deepseek: ['深度求索'],
  'moonshot ai': ['月之暗面', 'Kimi'],
  'zhipu ai': ['智谱', 'ChatGLM'],
  'z.ai': ['智谱', 'ChatGLM'],
  baidu: ['百度', '文心一言', 'ERNIE'],
  openai: ['ChatGPT'],
  google: ['Google DeepMind', 'DeepMind', 'Bard'],
  meta: ['Meta AI'],
  'mistral ai': ['Le Chat'],
};

/** Self-introduction cues in the arena's languages (lowercase), looked for just before a weak name. */
const SELF_INTRODUCTION_CUES = [
  'i am',
  "i'm",
  'my name is',
  'as an ai',
  'created by',
  'developed by',
  'trained by',
  'made by',
  'built by',
  'je suis',
  "je m'appelle",
  'en tant qu',
  'créé par',
  'développé par',
  'entraîné par',
  'conçu par',
  'soy',
  'me llamo',
  'desarrollado por',
  'creado por',
  'entrenado por',
  'sono',
  'mi chiamo',
  'sviluppato da',
  'creato da',
  'addestrato da',
  'ich bin',
  'entwickelt von',
  'erstellt von',
  'trainiert von',
  'eu sou',
  'desenvolvido por',
  'criado por',
  'ik ben',
  'ontwikkeld door',
  'gemaakt door',
  'jag är',
  'utvecklad av',
  'skapad av',
  'jeg er',
  'udviklet af',
  'utviklet av',
  'lavet af',
  'aš esu',
  'sukūrė',
  'sukurtas',
  'mina olen',
  'arendanud',
  'loodud',
  'minä olen',
  'kehittänyt',
  'я —',
  'я -',
  'меня зовут',
  'разработан',
  'создан',
  '我是',
  '开发',
  '私は',
  '저는',
];

const CUE_WINDOW = 48;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Scripts written without spaces have no word boundaries: there a name counts wherever it appears.
const unspacedScript = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;
const termPattern = (term: string) =>
  unspacedScript.test(term) ? escapeRegExp(term) : `(?<![\\p{L}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{N}])`;
const wordPattern = (terms: readonly string[]) =>
  terms.length === 0
    ? null
    : new RegExp(
        [...terms]
          .sort((a, b) => b.length - a.length)
          .map(termPattern)
          .join('|'),
        'giu',
      );

/** Builds the lexicon of one model from its catalogue facts (name, id, family word, organisation, aliases). */
export function buildIdentityLexicon(facts: IdentityFacts): IdentityLexicon {
  const family = facts.name.split(/[\s-]+/)[0] ?? facts.name;
  const candidates = [
    facts.name,
    facts.id,
    family,
    facts.organisation,
    ...(facts.aliases ?? []),
    ...(ORGANISATION_ALIASES[facts.organisation.toLowerCase()] ?? []),
  ].filter((term) => term.trim().length >= 2);
  const unique = [...new Set(candidates)];
  const isWeak = (term: string) => AMBIGUOUS_NAMES.has(term.toLowerCase());
  return { strong: wordPattern(unique.filter((term) => !isWeak(term))), weak: wordPattern(unique.filter(isWeak)) };
}

/** True when the text names its own model or vendor. */
export function namesOwnIdentity(text: string, lexicon: IdentityLexicon): boolean {
  if (lexicon.strong) {
    lexicon.strong.lastIndex = 0;
    if (lexicon.strong.test(text)) return true;
  }
  if (!lexicon.weak) return false;
  for (const match of text.matchAll(lexicon.weak)) {
    const before = text.slice(Math.max(0, match.index - CUE_WINDOW), match.index).toLowerCase();
    if (SELF_INTRODUCTION_CUES.some((cue) => before.includes(cue))) return true;
  }
  return false;
}
