import type { RuleCapability } from './capabilities';

/*
 * The deterministic capability labels: code, math, multi-turn and long query, from the visitor's
 * prompts alone (what the visitor asked, not what the models answered), in the arena's languages
 * (fr, en, da, sv, lt). Their agreement with a hand-labelled set is measured in
 * capability-agreement.test.ts (docs/ranking.md#capability-views).
 */

/** LMArena's multi-turn category: conversations of two turns or more. */
export const MULTI_TURN_MIN_TURNS = 2;

/**
 * LMArena's "longer query" category counts the visitor's tokens; without a tokenizer in the domain,
 * tokens are estimated at 4 characters each (the usual rule of thumb for Latin-script text), so
 * 500 tokens are 2,000 characters over all the prompts of the conversation.
 */
export const LONG_QUERY_MIN_TOKENS = 500;
export const CHARS_PER_TOKEN = 4;

/** One of these words with a number within 40 characters of it, in the same sentence. */
const nearNumber = (list: readonly string[]) => {
  const word = `(?<![\\p{L}\\p{N}_])(?:${list.join('|')})(?![\\p{L}\\p{N}_])`;
  return new RegExp(`${word}[^.?!\\n]{0,40}\\d|\\d[^.?!\\n]{0,40}${word}`, 'iu');
};

/** A word of these letters, not part of a longer word (\b knows no accented letters). */
const words = (list: readonly string[]) => new RegExp(`(?<![\\p{L}\\p{N}_])(?:${list.join('|')})(?![\\p{L}\\p{N}_])`, 'iu');

const FENCE = /```[\s\S]*?(?:```|$)/g;

/** Programming languages and tools: naming one is asking about code in every language of the arena. */
const PROGRAMMING_NAMES = words([
  'python',
  'javascript',
  'typescript',
  'java',
  'c\\+\\+',
  'c#',
  'rust',
  'golang',
  'kotlin',
  'php',
  'ruby',
  'sql',
  'postgres(?:ql)?',
  'sqlite',
  'mysql',
  'html',
  'css',
  'bash',
  'shell',
  'powershell',
  'regex',
  'regexp?',
  'react',
  'svelte',
  'node\\.?js',
  'django',
  'numpy',
  'pandas',
  'docker',
  'kubernetes',
  'git',
  'api',
  'json',
  'yaml',
  'excel-formel',
  'vba',
]);

/** Words for code and programming, fr/en/da/sv/lt (inflected forms listed: no stemmer in the domain). */
const CODE_WORDS = words([
  // en ("code" not of a law or a postcode: fr "code civil", "code postal")
  'code(?!\\s+(?:postal|civil|pénal|de\\s+la\\s+route|du\\s+travail|de\\s+commerce|vestimentaire))',
  'coding',
  'script',
  'function',
  'compile[sd]?',
  'debug',
  'bug',
  'refactor',
  'stack trace',
  'unit tests?',
  'algorithm',
  'programming',
  // fr
  'coder',
  'programmer',
  'programmation',
  'fonction',
  'algorithme',
  'déboguer',
  // da
  'kode[n]?',
  'programmering',
  'funktion(?:en)?',
  'algoritme',
  'fejlfinding',
  // sv
  'kod(?:en)?',
  'programmera',
  'programmering',
  'algoritm(?:en)?',
  'felsök(?:a)?',
  'skript(?:et)?',
  // lt
  'kod(?:as|ą|o|e)',
  'programavim(?:as|o|ą)',
  'program(?:ą|os)',
  'funkcij(?:a|ą|os)',
  'algoritm(?:as|ą)',
  'skript(?:as|ą)',
]);

/** Lines that look like source code: keywords with their syntax, statements ending in ; or {. */
const CODE_SYNTAX = [
  /^\s*(?:def|class|import|from\s+\S+\s+import|fn|func|public|private|const|let|var|#include|package)\s+[\w{<"'*]/m,
  /\b(?:console\.log|System\.out|printf|println|std::|self\.|this\.)/,
  /^\s*(?:SELECT|INSERT|UPDATE|DELETE|CREATE\s+TABLE)\b[\s\S]*?\b(?:FROM|INTO|SET|WHERE|\()/im,
  /^\s*<\/?[a-z][\w-]*(?:\s+[\w-]+="[^"]*")*\s*\/?>\s*$/m,
  /[;{]\s*$\n[\s\S]*[}]/m,
  /\w+\([^()\n]*\)\s*(?:=>|\{)/,
  /(?:Traceback \(most recent call last\)|Error: .+\n\s+at |Exception in thread|SyntaxError|TypeError|NullPointerException)/,
];

/** Inline `code` spans with something code-like in them (not a quoted word). */
const INLINE_CODE = /`[^`\n]*[(){}[\];=.<>/_][^`\n]*`/;

/** Whether the prompts ask about code: a fence, code-like lines, or programming named in words. */
export function isCodePrompt(text: string): boolean {
  if (/```/.test(text)) return true;
  if (CODE_SYNTAX.some((pattern) => pattern.test(text))) return true;
  if (INLINE_CODE.test(text)) return true;
  return PROGRAMMING_NAMES.test(text) || CODE_WORDS.test(text);
}

/** LaTeX and formula notation. */
const FORMULA = [
  /\$[^$\n]*[\\^_=+\-*/][^$\n]*\$/,
  /\\(?:frac|int|sum|sqrt|lim|cdot|times|alpha|beta|pi|infty|partial)\b/,
  /[∫∑√π≤≥≠±∞∂∆×÷]/,
  /\b[a-z]\s*\^\s*\d/i,
  /\b[a-z]\(\s*[a-z]\s*\)\s*=/i,
  /\d\s*[a-z]\s*[+\-=]\s*\d/i,
];

/** Two numbers joined by an arithmetic operator or an equals sign (not a date or a range). */
const ARITHMETIC = /(?<![\d/.-])\d+(?:[.,]\d+)?\s*(?:[+*×÷^=]|\s[-/:]\s)\s*\(?\d+(?:[.,]\d+)?/;

/** Words that make a prompt a math question on their own, fr/en/da/sv/lt. */
const MATH_WORDS = words([
  // en
  'equations?',
  'integrals?',
  'derivatives?',
  'differentiate',
  'probability',
  'theorem',
  'prove that',
  'matrix',
  'matrices',
  'eigenvalues?',
  'polynomials?',
  'logarithms?',
  'arithmetic',
  'algebra',
  'geometry',
  'trigonometry',
  'calculus',
  'fractions?',
  'prime numbers?',
  // fr
  'équations?',
  'intégrales?',
  'dérivées?',
  'probabilités?',
  'théorème',
  'démontrer',
  'démontrez',
  'matrices?',
  'polynômes?',
  'logarithmes?',
  'algèbre',
  'géométrie',
  'trigonométrie',
  'nombres? premiers?',
  // da
  'ligning(?:en|er)?',
  'integral(?:et|er)?',
  'differentialkvotient(?:en)?',
  'afled(?:e|t)',
  'sandsynlighed(?:en)?',
  'bevis(?:e)?',
  'matrix(?:en)?',
  'polynomi(?:um|et)?',
  'brøk(?:en|er)?',
  'primtal(?:let)?',
  'geometri',
  'trigonometri',
  // sv
  'ekvation(?:en|er)?',
  'integral(?:en)?',
  'derivata(?:n)?',
  'derivera',
  'sannolikhet(?:en)?',
  'bevisa',
  'matris(?:en|er)?',
  'polynom(?:et)?',
  'bråk(?:et)?',
  // lt
  'lygt(?:is|į|ies|ys|imis)',
  'integral(?:as|ą|o)',
  'išvestin(?:ė|ę|ės)',
  'tikimyb(?:ė|ę|ės)',
  'teorem(?:a|ą|os)',
  'įrodyk(?:ite)?',
  'matric(?:a|ą|os)',
  'daugianar(?:is|į|io)',
  'trupmen(?:a|ą|os)',
  'pirmini(?:ai|us) skaiči(?:ai|us)',
  'geometrij(?:a|ą|os)',
]);

/** Words that make a prompt a math question when a number comes with them (in the same sentence, near). */
const CALCULATION_WORDS = nearNumber([
  'calculate',
  'compute',
  'solve',
  'how much is',
  'percent(?:age)?',
  'calculer?',
  'calculez',
  'résoudre',
  'résous',
  'pourcentage',
  'combien font',
  'beregn',
  'udregn',
  'løs',
  'procent',
  'beräkna',
  'räkna ut',
  'lös',
  'hur mycket är',
  'apskaičiuok(?:ite)?',
  'išspręsk(?:ite)?',
  'procent(?:ai|ų|us)',
  'kiek bus',
]);

/** Whether the prompts ask a math question: a formula, arithmetic, or math vocabulary (outside code fences). */
export function isMathPrompt(text: string): boolean {
  const prose = text.replace(FENCE, ' ');
  if (FORMULA.some((pattern) => pattern.test(prose))) return true;
  if (ARITHMETIC.test(prose)) return true;
  if (MATH_WORDS.test(prose)) return true;
  return CALCULATION_WORDS.test(prose);
}

/** The visitor's estimated tokens over every prompt of the conversation. */
export const estimatedTokens = (prompts: readonly string[]): number =>
  Math.floor(prompts.reduce((sum, prompt) => sum + prompt.length, 0) / CHARS_PER_TOKEN);

/** The rule labels of a conversation, from its prompts in turn order. */
export function ruleCapabilities(prompts: readonly string[]): Set<RuleCapability> {
  const labels = new Set<RuleCapability>();
  const text = prompts.join('\n\n');
  if (isCodePrompt(text)) labels.add('code');
  if (isMathPrompt(text)) labels.add('math');
  if (prompts.length >= MULTI_TURN_MIN_TURNS) labels.add('multi_turn');
  if (estimatedTokens(prompts) >= LONG_QUERY_MIN_TOKENS) labels.add('long_query');
  return labels;
}
