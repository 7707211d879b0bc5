import type { Span } from './pii-kind';

/** Words that announce a date of birth, in French, English, Danish, Swedish and Lithuanian. */
const TRIGGER = new RegExp(
  [
    String.raw`\bn[ée]e?s?(?:\s?\(e\))?\s+(?:le|en)\b`,
    String.raw`\bn[ée]e?s?(?:\s?\(e\))?\s+(?:à|a)\s+[^\n.,;]{1,40}?\s+le\b`,
    String.raw`\bdate\s+de\s+naissance\b`,
    String.raw`\bdate\s+de\s+naiss\.`,
    String.raw`\bDDN\b`,
    String.raw`\bD\.?O\.?B\b\.?`,
    String.raw`\bdate\s+of\s+birth\b`,
    String.raw`\bbirth\s?date\b`,
    String.raw`\bborn\s+(?:on|in)\b`,
    String.raw`\bborn\b`,
    // Danish, Swedish, Lithuanian: fødselsdato, født (den), födelsedatum, född (den), gimimo data, gimęs/gimusi.
    String.raw`\bf(?:ødselsdato|ödelsedatum)\b`,
    String.raw`\bf(?:ø|ö)d(?:t|d)\b(?:\s+den\b)?`,
    String.raw`\bgimimo\s+data\b`,
    String.raw`\bgim(?:ęs|usi)\b`,
  ].join('|'),
  // Not 'u': V8 runs this alternation 15 times faster without it (1.4 against 20 µs on 300
  // characters). The triggers are ASCII and Latin-1, which case-fold the same either way; only the
  // 40-character gap counts an emoji as two.
  'gi',
);

const MONTHS_FR = 'janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre';
const MONTHS_EN =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';
const DAY = String.raw`(?:3[01]|[12]\d|0?[1-9])`;
const MONTH = String.raw`(?:1[0-2]|0?[1-9])`;
const YEAR = String.raw`(?:19\d{2}|20\d{2}|\d{2})`;

/** A full date (day, month and year) in the usual French and English notations. */
const DATE = new RegExp(
  [
    String.raw`${DAY}[/.|-]${MONTH}[/.|-]${YEAR}`,
    String.raw`${MONTH}[/.|-]${DAY}[/.|-]${YEAR}`,
    String.raw`${DAY} ${MONTH} (?:19|20)\d{2}`,
    String.raw`(?:19|20)\d{2}-${MONTH}-${DAY}`,
    String.raw`(?:${DAY}|1er)\s+(?:${MONTHS_FR}|${MONTHS_EN})\.?\s+(?:19|20)\d{2}`,
    String.raw`(?:${MONTHS_EN})\.?\s+${DAY}(?:st|nd|rd|th)?,?\s+(?:19|20)\d{2}`,
  ]
    .map((notation) => `${notation}(?!\\d)`)
    .join('|'),
  'iuy',
);

/** Separators allowed between the trigger and the date: punctuation, a table's bar, « le », « on », « the ». */
const BRIDGE = /[\s:=,|–-]*(?:(?:le|on|the|is|est|:)\s+)*/iuy;

/**
 * Dates of birth, only in context: a full date right after « né(e) le », « né à … le »,
 * « date de naissance », DDN, DOB, « born (on) », « date of birth ». A date alone (« le
 * rendez-vous est le 12/03/2025 ») is not a date of birth, and a birth year alone is not reported.
 */
export function findBirthDates(text: string): Span[] {
  const spans: Span[] = [];
  // Every notation of a date has a digit: a text without one is not searched for triggers (the costly part).
  if (!/\d/.test(text)) return spans;
  for (const trigger of text.matchAll(TRIGGER)) {
    const triggerEnd = trigger.index + trigger[0].length;
    BRIDGE.lastIndex = triggerEnd;
    const bridge = BRIDGE.exec(text);
    DATE.lastIndex = triggerEnd + (bridge?.[0].length ?? 0);
    const date = DATE.exec(text);
    if (!date || /[\p{N}]/u.test(text[DATE.lastIndex] ?? '')) continue;
    spans.push({ start: trigger.index, end: DATE.lastIndex });
  }
  return spans;
}
