import { describe, expect, it } from 'vitest';
import { normaliseForScreening, originalSpan, screenText, type MappedText, type PiiKind } from './index';
import { seededRandom } from '../../../test/seeded-random';

/**
 * Property: a disguised positive is still found. Every rule's positives below are written plainly
 * and then disguised at random, one to three disguises at a time, the way a red team (or a visitor
 * who wants a number to pass) would write them; the rules must find every variant, where it stands.
 */
const POSITIVES: ReadonlyArray<[PiiKind, string]> = [
  ['email', 'paul.martin@orange.fr'],
  ['email', 'claire_moreau84@laposte.net'],
  ['phone', '06 12 34 56 78'],
  ['phone', '+33 6 12 34 56 78'],
  ['phone', '07.81.23.45.67'],
  ['phone', '0046 70 123 45 67'],
  ['nir', '1 85 05 78 006 084 36'],
  ['nir', '285052A00608412'],
  ['iban', 'FR76 3000 6000 0112 3456 7890 189'],
  ['iban', 'DE89 3704 0044 0532 0130 00'],
  ['card', '4111 1111 1111 1111'],
  ['fr_siren', '732 829 320 00074'],
  ['pl_pesel', '44051401359'],
  ['lt_asmens_kodas', '38703181745'],
  ['lt_asmens_kodas', '33309240064'],
  ['se_personnummer', '811218-9876'],
  ['dk_cpr', '290200-4123'],
  ['de_steuer_id', '36 574 261 809'],
  ['es_dni', '12345678Z'],
  ['es_nie', 'X1234567L'],
  ['it_codice_fiscale', 'RSSMRA85T10A562S'],
  ['nl_bsn', 'BSN 111222333'],
  ['be_national_number', '85.07.30-033.28'],
  ['fr_passport', '18AB12345'],
  ['fr_id_card', "carte d'identité 880692310285"],
  ['address', '12 rue des Lilas, 75011 Paris'],
  ['birth_date', 'née le 22/08/1923'],
];

const random = seededRandom(0x2912_2026);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;

const FULLWIDTH = (text: string) => text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
const INVISIBLE = ['\u200B', '\u200C', '\u200D', '\u2060', '\u00AD', '\uFEFF'];
const DIGIT_WORDS_FR = ['zéro', 'un', 'deux', 'trois', 'quatre', 'cinq', 'six', 'sept', 'huit', 'neuf'];
const DIGIT_WORDS_EN = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

type Disguise = (value: string, kind: PiiKind) => string | null;
/** An address whose @ is still plain: the disguises of the @ and the dots apply once. */
const plainAddress = (value: string) => /^[^\s@()[\]]+@[^\s@()[\]]+$/.test(value);

/** Each returns the disguised value, or null when it does not apply to this value. */
const DISGUISES: Record<string, Disguise> = {
  fullwidth: (value) => FULLWIDTH(value),
  fullwidthDigits: (value) => value.replace(/\d/g, (digit) => FULLWIDTH(digit)),
  invisible: (value) => [...value].map((char, index) => (index > 0 && random() < 0.3 ? pick(INVISIBLE) : '') + char).join(''),
  atEntity: (value) =>
    plainAddress(value) ? value.replace('@', pick(['&#64;', '&#x40;', '&commat;', '%40', '＠', ' [@] ', '(@)'])) : null,
  dotEntity: (value) => (plainAddress(value) ? value.replace(/\.(?=[^@]*$)/g, () => pick(['&#46;', '&period;', '%2E', '[.]'])) : null),
  spelled: (value) => {
    if (!plainAddress(value)) return null;
    const [local = '', domain = ''] = value.split('@');
    return `${local}${pick(['_at_', '-at-'])}${domain.replace(/\./g, '_dot_')}`;
  },
  percentAll: (value) => (plainAddress(value) ? encodeURIComponent(value).replace(/\./g, '%2E') : null),
  // One or two digits replaced, as a visitor would to slip a number past a filter.
  lettersForDigits: (value) => {
    const places = [...value.matchAll(/[01]/g)].map((match) => match.index);
    if (!/^[\d +.-]+$/.test(value) || places.length === 0) return null;
    const chosen = new Set([pick(places), pick(places)]);
    return [...value].map((char, index) => (chosen.has(index) ? (char === '0' ? pick(['O', 'o']) : pick(['l', 'I'])) : char)).join('');
  },
  lineBreak: (value) => {
    const gaps = [...value.matchAll(/(?<=\d) (?=\d)/g)].map((match) => match.index);
    if (gaps.length === 0) return null;
    const at = pick(gaps);
    return `${value.slice(0, at)}${pick(['\n', ' \n', '\r\n'])}${value.slice(at + 1)}`;
  },
  oneDigitPerSpace: (value, kind) => (kind === 'phone' && /^0[\d ]+$/.test(value) ? value.replace(/\D/g, '').split('').join(' ') : null),
  digitWords: (value, kind) => {
    if (kind !== 'phone' || !/^0[\d .]+$/.test(value)) return null;
    const words = pick([DIGIT_WORDS_FR, DIGIT_WORDS_EN]);
    return value
      .replace(/\D/g, '')
      .split('')
      .map((digit) => words[Number(digit)])
      .join(pick([' ', ', ', '-']));
  },
  // Once: the normalisation decodes two levels of encoding (`&amp;#64;`), not an entity inside an entity inside an entity.
  entityDigits: (value) =>
    value.includes('&#') ? null : value.replace(/\d/g, (digit) => (random() < 0.3 ? `&#${digit.charCodeAt(0)};` : digit)),
};
const NAMES = Object.keys(DISGUISES);

const SENTENCES = [
  (value: string) => `Voici : ${value}, merci de ne pas diffuser.`,
  (value: string) => `You can use ${value} for that.`,
  (value: string) => `${value}`,
  (value: string) => `Mano duomenys:\n${value}\nAčiū.`,
];

describe('disguised positives', () => {
  it.each(POSITIVES)('finds %s %j in 200 randomly disguised variants', (kind, plain) => {
    expect(screenText(plain).kinds, 'the plain form is found').toContain(kind);
    const missed: string[] = [];
    for (let variant = 0; variant < 200; variant++) {
      let value = plain;
      const applied: string[] = [];
      for (let count = 1 + Math.floor(random() * 3); applied.length < count;) {
        const name = pick(NAMES);
        const disguised = DISGUISES[name]!(value, kind);
        if (disguised !== null) value = disguised;
        applied.push(name);
      }
      const sentence = pick(SENTENCES)(value);
      const start = sentence.indexOf(value);
      const screening = screenText(sentence);
      // Found where the disguised value stands (the offsets are the original text's), not beyond it.
      const found = screening.findings.some(
        (finding) => finding.start >= start && finding.end <= start + value.length && finding.end > finding.start,
      );
      if (!found) missed.push(`${applied.join('+')}: ${JSON.stringify(value)}`);
    }
    expect(missed, missed.slice(0, 5).join('\n')).toEqual([]);
  });
});

describe('normalisation', () => {
  it('maps every finding back to the characters the visitor typed', () => {
    const text = 'Écrivez à ｐａｕｌ＠ｏｒａｎｇｅ．ｆｒ ou au O6&#32;12 34 56 78.';
    const screening = screenText(text);
    expect(screening.findings.map((finding) => [finding.kind, text.slice(finding.start, finding.end)])).toEqual([
      ['email', 'ｐａｕｌ＠ｏｒａｎｇｅ．ｆｒ'],
      ['phone', 'O6&#32;12 34 56 78'],
    ]);
  });

  it('leaves a text without disguise as it is, with no map', () => {
    const readings = normaliseForScreening('Bonjour, 12 rue des Lilas, prix 1 299,99 €.');
    expect(readings).toHaveLength(1);
    expect(readings[0]!.starts).toBeNull();
  });

  it.each([
    ['a count in words', 'zéro, un, deux, trois, quatre, cinq, six, sept, huit, neuf'],
    ['a count in digits', '0 1 2 3 4 5 6 7 8 9'],
    ['a column name', 'SELECT created_at_ms FROM visits'],
    ['a chemical formula', 'H2O et CO2 à 1013 hPa'],
  ])('makes no personal data out of %s', (_label, text) => {
    expect(screenText(text).kinds).toEqual([]);
  });

  it("keeps the letters of a run that holds other letters (an IBAN's O stays an O)", () => {
    expect(normaliseForScreening('AX 630P 9O63 9977 8195 et O6 12 34 56 78').at(-1)!.text).toBe('AX 630P 9O63 9977 8195 et 06 12 34 56 78');
  });

  it('maps a span of the rewritten text onto the original characters it came from', () => {
    const [normalised] = normaliseForScreening('a&#64;b') as [MappedText];
    expect(normalised.text).toBe('a@b');
    expect(originalSpan(normalised, { start: 1, end: 2 })).toEqual({ start: 1, end: 6 });
    expect(originalSpan(normalised, { start: 0, end: 3 })).toEqual({ start: 0, end: 7 });
  });
});
