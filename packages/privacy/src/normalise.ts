import { replaceMapped, unmapped, type MappedText } from './mapped-text';
import { spellOutNumberWords } from './number-words';

/**
 * The rewritings of a text that every rule reads, so that disguised personal data meets the same
 * rules as plain data: `paul＠orange.fr`, `paul&#64;orange.fr`, `paul%40orange.fr`,
 * `paul\u200B@orange.fr` (a zero-width space), `paul_at_orange_dot_fr`, `０６１２３４５６７８` and a
 * number cut by a line break become the plain form in the first; `O6 12 34 56 78`,
 * `0 6 1 2 3 4 5 6 7 8`, « zéro six douze trente-quatre… » and `Tel0612345678` in the second, which
 * exists only when it differs. Two readings, because the second's guesses could break what the
 * first reads well (an IBAN whose BBAN holds an O or starts glued to its country code): the rules
 * read both and a finding in either counts. Offsets map back to the original text (see
 * {@link MappedText}), for the review queue's highlights.
 */
export function normaliseForScreening(text: string): MappedText[] {
  const plain = plainReading(text);
  let guessed = plain;
  // Every guess but the numbers in words needs a digit; each pass runs only when the text holds
  // what it cannot match without (the same result, sooner).
  if (/\d/.test(plain.text)) {
    guessed = gated(guessed, /\d[ .|/-]?[OoIl]|[OoIl][ .|/-]?\d/, LETTERS_FOR_DIGITS, letterDigits);
    guessed = gated(guessed, /\p{Ll}\+?\(?\d/u, NUMBER_GLUED_TO_WORD, () => ' ');
    guessed = gated(guessed, /(?:DDN|DOB|NIR|CPR|INSEE|IBAN|RIB|TEL|TLF|GSM|SS)(?:[+(\d]|[A-Z]{2} ?\d)/i, NUMBER_GLUED_TO_LABEL, () => ' ');
  }
  guessed = spellOutNumberWords(guessed);
  guessed = gated(guessed, /\d[ .|-]\d[ .|-]\d/, SPACED_DIGITS, joinSpacedDigits);
  return guessed === plain ? [plain] : [plain, guessed];
}

/** What only decodes: encodings, compatibility forms, invisible characters, spelled signs, line breaks in numbers. */
function plainReading(text: string): MappedText {
  let mapped = replaceMapped(unmapped(text), FORMAT_CHARACTERS, () => '');
  // Fullwidth forms first (`＆＃６４；` is an entity too), then the encodings, twice (`&amp;#64;` and
  // `%2540` are encoded twice), then NFKC again for what they decoded to (`&#xFF20;`).
  mapped = compatibilityForms(mapped);
  for (let round = 0; round < 2; round++) mapped = decodePercent(decodeEntities(mapped));
  mapped = compatibilityForms(replaceMapped(mapped, FORMAT_CHARACTERS, () => ''));
  mapped = gated(mapped, /[_-](?:at|arobase)[_-]/i, SPELLED_ADDRESS, spelledAddress);
  mapped = gated(mapped, /[([{<]\s?[@.]/, BRACKETED_SIGN, (match) => (match[1] === '.' ? '.' : '@'));
  return gated(mapped, /\n/, LINE_BREAK_IN_NUMBER, () => ' ');
}

/** {@link replaceMapped}, only when `gate` finds what `pattern` cannot match without. */
function gated(mapped: MappedText, gate: RegExp, pattern: RegExp, replace: (match: RegExpExecArray) => string | null): MappedText {
  return gate.test(mapped.text) ? replaceMapped(mapped, pattern, replace) : mapped;
}

/** Zero-width spaces and joiners, soft hyphens, direction marks, word joiners, BOMs: every format character. */
const FORMAT_CHARACTERS = /\p{Cf}+/gu;

// ---- encodings -------------------------------------------------------------------------------

const NAMED_ENTITIES: Record<string, string> = {
  commat: '@',
  period: '.',
  amp: '&',
  nbsp: ' ',
  plus: '+',
  lpar: '(',
  rpar: ')',
  hyphen: '-',
  dash: '-',
  minus: '-',
  sol: '/',
  colon: ':',
  num: '#',
  lowbar: '_',
  verbar: '|',
  vert: '|',
  percnt: '%',
};
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]{2,8});)(;?)/g;

function decodeEntities(mapped: MappedText): MappedText {
  if (!mapped.text.includes('&')) return mapped;
  return replaceMapped(mapped, ENTITY, ([, decimal, hex, name]) => {
    if (name !== undefined) return NAMED_ENTITIES[name.toLowerCase()] ?? null;
    const code = decimal !== undefined ? Number(decimal) : Number.parseInt(hex ?? '', 16);
    return code >= 0x20 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : null;
  });
}

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** `%40` and UTF-8 runs such as `%EF%BC%A0`; a byte that decodes to a control character stays as written. */
function decodePercent(mapped: MappedText): MappedText {
  if (!mapped.text.includes('%')) return mapped;
  return replaceMapped(mapped, PERCENT_RUN, ([run]) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(run);
    } catch {
      return null;
    }
    return /\p{Cc}/u.test(decoded) ? null : decoded;
  });
}

/** A character with its combining marks, where NFKC may change something (any non-ASCII one). */
const NON_ASCII_CLUSTER = /[^\p{ASCII}]\p{M}*|\p{ASCII}\p{M}+/gu;

/** Unicode NFKC, one character with its marks at a time so that each maps back: fullwidth `＠０６` become `@06`. */
function compatibilityForms(mapped: MappedText): MappedText {
  if (mapped.text.normalize('NFKC') === mapped.text) return mapped;
  return replaceMapped(mapped, NON_ASCII_CLUSTER, ([cluster]) => cluster.normalize('NFKC'));
}

// ---- addresses spelled with words --------------------------------------------------------------

/** `paul_at_orange_dot_fr`, `paul-at-orange-dot-fr`: only as a whole, since `created_at_ms` is a column, not an address. */
const SPELLED_ADDRESS = new RegExp(
  String.raw`(?<![\p{L}\p{N}])([\p{L}\p{N}.+]{1,64})[_-](?:at|arobase)[_-]([\p{L}\p{N}]{1,63}(?:(?:[_-](?:dot|point|punkt|punktum|punto|taškas)[_-]|\.)[\p{L}\p{N}]{1,63}){1,4})(?![\p{L}\p{N}])`,
  'giu',
);

function spelledAddress([, local, domain]: RegExpExecArray): string {
  return `${local}@${(domain ?? '').replace(/[_-](?:dot|point|punkt|punktum|punto|taškas)[_-]/giu, '.')}`;
}

/** `[@]`, `(@)`, `[.]`, `(.)`: signs put in brackets to dodge scrapers. */
const BRACKETED_SIGN = /\s?[([{<]{1,2}\s?([@.])\s?[)\]}>]{1,2}\s?/g;

// ---- numbers -----------------------------------------------------------------------------------

/** A line break between the groups of a number (`06 12 34\n56 78`, `06 - 12\n- 34…`, an IBAN printed over two lines). */
const LINE_BREAK_IN_NUMBER = /(?<=[\dA-Z)])[ \t]*\r?\n[ \t]*(?=(?:[-.|/] ?)?\d)|(?<=\d)[ \t]*\r?\n[ \t]*(?=[A-Z(])/g;

/**
 * A number glued to the word before it (`Tel0612345678`, `né le26.12.1991`, `Personnummer180426-1087`):
 * a space goes between a lowercase word and three digits or more (or a date with its month in words),
 * never inside an address's local part.
 */
const NUMBER_GLUED_TO_WORD =
  /(?<=\p{Ll}{2})(?=\+?\(?\d(?:[\d ().|/-]{0,3}\d){2}|\d{1,2}(?:er)? \p{L}{3,9}\.? \d{4})(?![\p{L}\p{N}._%+-]*@)/gu;
/** The same after the capitalised labels of a form: `DDN9|07|1972`, `DOB28/06/1945`, `IBANSE70…`, `TEL+33…`. */
const NUMBER_GLUED_TO_LABEL = /(?<=\b(?:DDN|DOB|NIR|CPR|INSEE|IBAN|RIB|TEL|TLF|GSM|SS))(?=\+?\(?\d|[A-Z]{2} ?\d\d)/giu;

/**
 * O, o, I and l standing for 0 and 1 in a run of digit groups (`O6 12 34 56 78`, `l 85 05 78 0O6…`): only
 * in a whole run whose groups hold nothing but digits and those letters, six digits or more, so
 * that an IBAN's letters (`AX 630P 9O63…`, whose run holds a P) and words stay as written.
 */
const LETTERS_FOR_DIGITS =
  /(?<![\p{L}\p{N}]|\p{N}\p{L}{0,4}[ .|/-])(?:[OoIl]{0,3}\d[\dOoIl]*|[OoIl])(?:[ .|/-][\dOoIl]{1,8})*(?![\p{L}\p{N}]|[ .|/-]\p{L}{0,4}\p{N})/gu;

function letterDigits([run]: RegExpExecArray): string | null {
  if (!/[OoIl]/.test(run) || (run.match(/\d/g) ?? []).length < 6) return null;
  return run.replace(/[Oo]/g, '0').replace(/[Il]/g, '1');
}

/** One digit per group, 8 to 16 of them: `0 6 1 2 3 4 5 6 7 8`. */
const SPACED_DIGITS = /(?<![\p{L}\p{N}])\d(?:[ .|-]\d){7,15}(?![\p{L}\p{N}])/gu;

function joinSpacedDigits([run]: RegExpExecArray): string | null {
  const digits = run.replace(/\D/g, '');
  // Digits counting up or down by one (`0 1 2 3 4 5 6 7 8 9`) are a count, not a number.
  const counting = [...digits].every((digit, index) => index === 0 || Math.abs(Number(digit) - Number(digits[index - 1])) === 1);
  return counting ? null : digits;
}
