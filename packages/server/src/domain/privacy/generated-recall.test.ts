import { getCountrySpecifications } from 'ibantools';
import examples from 'libphonenumber-js/examples.mobile.json';
import { type CountryCode, getCountries, getExampleNumber, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { PII_KINDS, type PiiKind, screenText } from './index';
import { seededRandom } from '../../../test/seeded-random';

const random = seededRandom(20_261_201);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
const digits = (count: number) => Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');
const pad = (value: number | bigint, width: number) => String(value).padStart(width, '0');

/** Splits `compact` into groups of the given sizes, cycling, joined by `separator`. */
function grouped(compact: string, sizes: readonly number[], separator: string): string {
  const groups: string[] = [];
  for (let index = 0, turn = 0; index < compact.length; turn += 1) {
    const size = sizes[turn % sizes.length]!;
    groups.push(compact.slice(index, index + size));
    index += size;
  }
  return groups.join(separator);
}

const SENTENCES: readonly ((value: string) => string)[] = [
  (value) => `Voici mes coordonnées : ${value}, merci de me rappeler.`,
  (value) => `You can reach me at ${value} tomorrow.`,
  (value) => `Meine Angaben: ${value}. Danke!`,
  (value) => `Mis datos son ${value} por si acaso.`,
  (value) => `Ecco il dato: ${value}, grazie.`,
  (value) => `Mina uppgifter: ${value}.`,
  (value) => `Her er oplysningen ${value} som lovet.`,
  (value) => `Mano duomenys: ${value}, ačiū.`,
  (value) => `${value}`,
];

// ---- generators -------------------------------------------------------------------------------

const IBAN_COUNTRIES = Object.entries(getCountrySpecifications()).flatMap(([country, spec]) =>
  spec.chars && spec.IBANRegistry ? [[country, spec.chars] as const] : [],
);

function iban(): string {
  const [country, length] = pick(IBAN_COUNTRIES);
  const bban = Array.from({ length: length - 4 }, (_, index) =>
    index < 4 && random() < 0.3 ? String.fromCharCode(65 + Math.floor(random() * 26)) : String(Math.floor(random() * 10)),
  ).join('');
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  const compact = `${country}${pad(98n - (BigInt(numeric) % 97n), 2)}${bban}`;
  switch (Math.floor(random() * 6)) {
    case 0:
      return compact;
    case 1:
      return grouped(compact, [4], ' ');
    case 2:
      return `${compact.slice(0, 2)} ${grouped(compact.slice(2), [4], ' ')}`;
    case 3:
      return grouped(compact, [4, 3, 5, 2, 6], ' ');
    case 4:
      return grouped(compact, [4], '-');
    default:
      return grouped(compact.toLowerCase(), [4], ' ');
  }
}

const PHONE_COUNTRIES = getCountries().filter((country) => getExampleNumber(country, examples) !== undefined);

/** A number from a country's plan with its last digits changed (often no longer valid: still someone's number). */
function phone(): string {
  const country: CountryCode = pick(PHONE_COUNTRIES);
  const example = getExampleNumber(country, examples)!;
  const national = String(example.nationalNumber);
  const keep = Math.max(2, national.length - 4);
  const changed = `${national.slice(0, keep)}${digits(national.length - keep)}`;
  const number = parsePhoneNumberFromString(`+${example.countryCallingCode}${changed}`);
  const international = number?.formatInternational() ?? `+${example.countryCallingCode} ${grouped(changed, [3, 2, 2, 2], ' ')}`;
  const nationalWriting = number?.formatNational() ?? '';
  const extension = random() < 0.15 ? pick([' poste 12', ' ext. 4410', ' x23', ' (ext. 9)']) : '';
  switch (Math.floor(random() * 5)) {
    case 0:
      return `+${example.countryCallingCode}${changed}${extension}`;
    case 1:
      return `${international}${extension}`;
    case 2:
      return `${international.replace('+', '00')}${extension}`;
    case 3:
      // National writings with a trunk 0 or an area code in brackets; the others need their + (docs/privacy.md).
      return /^[0(]/.test(nationalWriting) ? `${nationalWriting}${extension}` : `${international}${extension}`;
    default: {
      // A French-shaped number, valid or not (any 0X, 08 service ranges included).
      const compact = `0${1 + Math.floor(random() * 9)}${digits(8)}`;
      return pick([compact, grouped(compact, [2], ' '), grouped(compact, [2], '.'), grouped(compact, [2], '-')]) + extension;
    }
  }
}

const CARD_ISSUERS: readonly (readonly [string, number, readonly number[]])[] = [
  ['4', 16, [4]],
  ['51', 16, [4]],
  ['55', 16, [4]],
  ['2221', 16, [4]],
  ['34', 15, [4, 6, 5]],
  ['37', 15, [4, 6, 5]],
  ['6011', 16, [4]],
  ['3528', 16, [4]],
  ['62', 16, [4]],
  ['4', 19, [4]],
];

function card(): string {
  const [prefix, length, sizes] = pick(CARD_ISSUERS);
  const body = `${prefix}${digits(length - prefix.length - 1)}`;
  let sum = 0;
  for (let index = 0; index < body.length; index += 1) {
    let digit = Number(body[body.length - 1 - index]);
    if (index % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  const compact = `${body}${(10 - (sum % 10)) % 10}`;
  return pick([compact, grouped(compact, sizes, ' '), grouped(compact, sizes, '-')]);
}

function nir(): string {
  const department = pick(['75', '13', '69', '2A', '2B', '59', '33', '31', '06', '974']);
  const commune = department.length === 3 ? pad(1 + Math.floor(random() * 24), 2) : pad(1 + Math.floor(random() * 600), 3);
  const first13 = `${pick(['1', '2'])}${pad(Math.floor(random() * 100), 2)}${pad(1 + Math.floor(random() * 12), 2)}${department}${commune}${pad(1 + Math.floor(random() * 998), 3)}`;
  const key = pad(97n - (BigInt(first13.replace('2A', '19').replace('2B', '18')) % 97n), 2);
  const compact = `${first13}${key}`;
  return pick([
    compact,
    `${compact[0]} ${compact.slice(1, 3)} ${compact.slice(3, 5)} ${compact.slice(5, 7)} ${compact.slice(7, 10)} ${compact.slice(10, 13)} ${key}`,
  ]);
}

const FIRST = ['marie', 'jean', 'lukas', 'sofia', 'erik', 'mette', 'rūta', 'élodie', 'giulia', 'o.connor', 'ana-lucía', 'p'];
const LAST = ['dupont', 'müller', 'garcía', 'rossi', 'andersson', 'jensen', 'kazlauskas', 'lefèvre', 'nguyen', 'x'];
const DOMAINS = [
  ['orange', 'fr'],
  ['gmail', 'com'],
  ['gmx', 'de'],
  ['telia', 'se'],
  ['uni-lyon', 'fr'],
  ['mail', 'lt'],
  ['posteo', 'de'],
  ['outlook', 'com'],
];

function email(): string {
  const local = `${pick(FIRST)}${pick(['.', '_', '', '-', '+arena.'])}${pick(LAST)}${random() < 0.3 ? digits(2) : ''}`;
  const [name, tld] = pick(DOMAINS);
  switch (Math.floor(random() * 7)) {
    case 0:
      return `${local}@${name}.${tld}`;
    case 1:
      return `${local.replaceAll('.', ' . ')} @ ${name} . ${tld}`;
    case 2:
      return `${local} (at) ${name} (dot) ${tld}`;
    case 3:
      return `${local} [at] ${name} [dot] ${tld}`;
    case 4:
      return `${local} at ${name} dot ${tld}`;
    case 5:
      return `${local}@${name}`;
    default:
      return `${local}@${name}.${tld}`.toUpperCase();
  }
}

const GENERATORS: Partial<Record<PiiKind, () => string>> = { iban, phone, card, nir, email };

describe('the rules layer on generated personal data', () => {
  it.each(Object.entries(GENERATORS) as [PiiKind, () => string][])(
    'finds %s with recall ≥ 0.99 over 1,000 generated values',
    (kind, generate) => {
      const missed: string[] = [];
      for (let index = 0; index < 1000; index += 1) {
        const text = pick(SENTENCES)(generate());
        if (!screenText(text).pii) missed.push(text);
      }
      const recall = 1 - missed.length / 1000;
      console.info(
        `[pii] ${kind}: recall ${recall.toFixed(3)} on 1,000 generated values${missed.length ? `; missed: ${missed.slice(0, 4).join(' | ')}` : ''}`,
      );
      expect(recall, `missed, e.g. ${missed.slice(0, 5).join(' | ')}`).toBeGreaterThanOrEqual(0.99);
    },
  );
});

// ---- clean text -------------------------------------------------------------------------------

const CLEAN: readonly (() => string)[] = [
  () =>
    `Le prix est de ${Math.floor(random() * 2000)},${pad(Math.floor(random() * 100), 2)} € TTC, livraison le ${1 + Math.floor(random() * 28)}/${1 + Math.floor(random() * 12)}/2025.`,
  () =>
    `In ${1900 + Math.floor(random() * 125)}, the population grew by ${Math.floor(random() * 90)}.${digits(1)} % to ${digits(7)} people.`,
  () =>
    `Die Bestellung ${digits(4)}-${digits(3)}-${digits(4)} wurde am ${pad(1 + Math.floor(random() * 28), 2)}.${pad(1 + Math.floor(random() * 12), 2)}.2024 verschickt.`,
  () =>
    `El código postal es ${digits(5)} y la versión ${Math.floor(random() * 10)}.${Math.floor(random() * 30)}.${Math.floor(random() * 9)}.`,
  () =>
    `La partita è finita ${Math.floor(random() * 6)}-${Math.floor(random() * 6)} alle ${pad(Math.floor(random() * 24), 2)}:${pad(Math.floor(random() * 60), 2)}.`,
  () => `Tåget går kl ${pad(Math.floor(random() * 24), 2)}.${pad(Math.floor(random() * 60), 2)} och kostar ${digits(3)} kr.`,
  () => `Resultatet blev ${digits(2)} ud af ${digits(3)}, altså ${Math.floor(random() * 100)} procent.`,
  () => `Metinis biudžetas – ${digits(2)} ${digits(3)} ${digits(3)} eurų, ${1 + Math.floor(random() * 12)} mėnesių.`,
  () => `ISBN 978-${digits(1)}-${digits(3)}-${digits(5)}-${digits(1)}; coordonnées GPS 48.${digits(6)}, 2.${digits(6)}.`,
  () => `SIREN ${digits(3)} ${digits(3)} ${digits(3)}, capital de ${digits(3)} ${digits(3)} €.`,
  () => `Compute ${digits(4)} * ${digits(4)} = ${digits(8)} and then 0.${digits(9)}.`,
  () => `Call the emergency number 112, or 15 for a doctor; the helpline is 3919.`,
  () => `Écris-moi un poème sur la mer, en ${2 + Math.floor(random() * 10)} strophes de ${4 + Math.floor(random() * 4)} vers.`,
  () => `The meeting is at 3 pm at the station; bring ${digits(1)} copies of the report.`,
  () => `npm i -E vite@${Math.floor(random() * 9)}.${Math.floor(random() * 9)}.${Math.floor(random() * 9)} && cp logo@2x.png build/`,
];

describe('the rules layer on clean multilingual text', () => {
  it('flags few of 2,000 generated sentences with numbers that are not personal data', () => {
    const flagged = new Map<PiiKind, string[]>();
    for (let index = 0; index < 2000; index += 1) {
      const text = pick(CLEAN)();
      for (const kind of screenText(text).kinds) flagged.set(kind, [...(flagged.get(kind) ?? []), text]);
    }
    const rates = PII_KINDS.map((kind) => `${kind} ${(((flagged.get(kind)?.length ?? 0) / 2000) * 100).toFixed(2)} %`);
    console.info(`[pii] false positives on clean text: ${rates.join(', ')}`);
    const total = [...flagged.values()].reduce((sum, texts) => sum + texts.length, 0);
    // Conservative exclusion has a price: an order number written like a phone number (0884-184-0210)
    // is flagged. The rates are stated in docs/privacy.md; this bound catches a detector gone wild.
    expect(total / 2000, `flagged, e.g. ${[...flagged.values()].flat().slice(0, 5).join(' | ')}`).toBeLessThanOrEqual(0.1);
  });
});
