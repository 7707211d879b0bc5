import { replaceMapped, type MappedText } from './mapped-text';

/**
 * Numbers written as words, so that « zéro six, douze, trente-quatre… » meets the phone rule as
 * `0612 34…`. Digits 0–9 in the arena's languages and the other large EU ones; the French and
 * English numbers up to 99 as well, since French numbers are read out in pairs.
 */
const DIGITS: Record<string, number> = {
  // French, English, German, Spanish, Italian, Danish, Swedish, Lithuanian, Polish, Dutch.
  ...words('zéro zero un deux trois quatre cinq six sept huit neuf'.split(' '), [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
  ...words('oh one two three four five six seven eight nine'.split(' '), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
  ...words('null eins zwei drei vier fünf sechs sieben acht neun'.split(' ')),
  ...words('cero uno dos tres cuatro cinco seis siete ocho nueve'.split(' ')),
  ...words('zero uno due tre quattro cinque sei sette otto nove'.split(' ')),
  ...words('nul en to tre fire fem seks syv otte ni'.split(' ')),
  ...words('noll ett två tre fyra fem sex sju åtta nio'.split(' ')),
  ...words('nulis vienas du trys keturi penki šeši septyni aštuoni devyni'.split(' ')),
  ...words('zero jeden dwa trzy cztery pięć sześć siedem osiem dziewięć'.split(' ')),
  ...words('nul een twee drie vier vijf zes zeven acht negen'.split(' ')),
};
const TEENS: Record<string, number> = {
  ...words('dix onze douze treize quatorze quinze seize'.split(' '), [10, 11, 12, 13, 14, 15, 16]),
  ...words(
    'ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen'.split(' '),
    [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
  ),
};
const TENS: Record<string, number> = {
  ...words('vingt trente quarante cinquante soixante'.split(' '), [20, 30, 40, 50, 60]),
  ...words('twenty thirty forty fifty sixty seventy eighty ninety'.split(' '), [20, 30, 40, 50, 60, 70, 80, 90]),
};

function words(list: readonly string[], values: readonly number[] = list.map((_, index) => index)): Record<string, number> {
  return Object.fromEntries(list.map((word, index) => [word, values[index] ?? index]));
}

const VOCABULARY = [...new Set([...Object.keys(DIGITS), ...Object.keys(TEENS), ...Object.keys(TENS), 'vingts', 'et', 'and'])].sort(
  (left, right) => right.length - left.length,
);
/** A run of number words (at least four) separated by spaces, commas, dashes, dots or bars. */
const RUN = new RegExp(
  String.raw`(?<!\p{L})(?:${VOCABULARY.join('|')})(?:[\s,;.|/-]{1,3}(?:${VOCABULARY.join('|')})){3,40}(?!\p{L})`,
  'giu',
);
const TOKEN = new RegExp(String.raw`\p{L}+`, 'gu');

/** One number read from `tokens` at `index`: its value and how many tokens it took, or null. */
function readNumber(tokens: readonly string[], index: number): { value: number; taken: number } | null {
  const token = tokens[index] ?? '';
  let base: number | undefined;
  let taken = 1;
  if (token === 'quatre' && /^vingts?$/.test(tokens[index + 1] ?? '')) {
    base = 80;
    taken = 2;
  } else base = TENS[token];
  if (base !== undefined) {
    let next = index + taken;
    if (tokens[next] === 'et' || tokens[next] === 'and') next += 1;
    const teen = readTeen(tokens, next);
    if ((base === 60 || base === 80) && teen) return { value: base + teen.value, taken: next - index + teen.taken };
    const unit = DIGITS[tokens[next] ?? ''];
    if (unit !== undefined && unit > 0) return { value: base + unit, taken: next - index + 1 };
    return { value: base, taken };
  }
  const teen = readTeen(tokens, index);
  if (teen) return teen;
  const digit = DIGITS[token];
  return digit === undefined ? null : { value: digit, taken: 1 };
}

/** 10–19, « dix-sept » to « dix-neuf » included. */
function readTeen(tokens: readonly string[], index: number): { value: number; taken: number } | null {
  const token = tokens[index] ?? '';
  const unit = DIGITS[tokens[index + 1] ?? ''];
  if (token === 'dix' && unit !== undefined && unit >= 7) return { value: 10 + unit, taken: 2 };
  const teen = TEENS[token];
  return teen === undefined ? null : { value: teen, taken: 1 };
}

/** Whether single digits count up or down by one (« un, deux, trois… »): a count, not a number. */
const isCount = (values: readonly number[]) =>
  values.every((value) => value < 10) && values.every((value, index) => index === 0 || Math.abs(value - values[index - 1]!) === 1);

/** The digits a run of number words spells, or null when it is not a number of 8 digits or more. */
function spelledDigits(run: string): string | null {
  const tokens = [...run.toLowerCase().matchAll(TOKEN)].map((match) => match[0]);
  const values: number[] = [];
  for (let index = 0; index < tokens.length;) {
    if (tokens[index] === 'et' || tokens[index] === 'and') {
      index += 1;
      continue;
    }
    const number = readNumber(tokens, index);
    if (!number) return null;
    values.push(number.value);
    index += number.taken;
  }
  const digits = values.join('');
  return values.length >= 4 && digits.length >= 8 && !isCount(values) ? digits : null;
}

/** Replaces each run of number words that spells 8 digits or more by those digits. */
export function spellOutNumberWords(mapped: MappedText): MappedText {
  return replaceMapped(mapped, RUN, (match) => spelledDigits(match[0]));
}
