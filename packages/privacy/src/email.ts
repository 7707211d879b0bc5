import type { Span } from './pii-kind';

/**
 * Every pattern here starts only at the beginning of a run of address characters (its lookbehind
 * excludes each character a local part may hold, the apostrophe and a preceding dot included) and
 * every repetition is bounded (a local part is at most 64 characters, RFC 5321): a match attempt
 * never restarts inside a long run, so screening time stays linear in the length of the text, even
 * for a 60,000-character prompt built to make it slow.
 */
const NOT_INSIDE_A_RUN = String.raw`(?<![\p{L}\p{N}._%+'-]|\.\s)`;
const ATOM = String.raw`[\p{L}\p{N}_%+'-]{1,64}`;
const EMAIL = new RegExp(
  String.raw`${NOT_INSIDE_A_RUN}[\p{L}\p{N}._%+'-]{1,64}@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}[\p{L}\p{N}])?\.){1,8}\p{L}{2,24}(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])`,
  'gu',
);

/**
 * Addresses written so that machines miss them, or cut short. Two forms:
 * - with an `@`: spaces around it and around the dots (`paul . martin @ orange . fr`), or a domain
 *   with no top-level part (`paul.martin@orange`); spaces before the `@` count only with spaces
 *   after it, so a `@handle` after a word stays out;
 * - with a word for the `@` (`(at)`, `[at]`, `[ät]`, ` at `, ` arobase `, ` arroba `, ` chez `)
 *   when the dots are words too (`dot`, `point`, `punto`, `punkt`): `paul.martin at orange dot fr`,
 *   `maria.garcia arroba gmail punto com`; "available at github.com" is prose, not an address.
 */
const LOCAL = String.raw`${ATOM}(?:\s?\.\s?${ATOM}){0,7}`;
const LABEL = String.raw`\p{L}[\p{L}\p{N}-]{0,62}`;
const WITH_AT_SIGN = new RegExp(
  String.raw`${NOT_INSIDE_A_RUN}${LOCAL}(?:@|\s{1,3}@\s{1,3})${LABEL}(?:\s?\.\s?[\p{L}\p{N}-]{1,63}){0,7}`,
  'gu',
);
const AT_WORDS = String.raw`at|[äa]t|arobase|arroba|chez|snabel-a|eta`;
const DOT_WORDS = String.raw`dot|point|punto|punktum|punkt|taškas|taskas`;
const DOT_WORD = String.raw`(?:\s{0,3}[([{]\s{0,3}(?:${DOT_WORDS})\s{0,3}[)\]}]\s{0,3}|\s{1,3}(?:${DOT_WORDS})\s{1,3})`;
const WITH_AT_WORD = new RegExp(
  String.raw`${NOT_INSIDE_A_RUN}${ATOM}(?:\.${ATOM}){0,7}` +
    String.raw`(?:\s{0,3}[([{]\s{0,3}(?:${AT_WORDS})\s{0,3}[)\]}]\s{0,3}${LABEL}(?:(?:\.|${DOT_WORD})[\p{L}\p{N}-]{1,63}){1,7}|\s{1,3}(?:${AT_WORDS})\s{1,3}${LABEL}(?:${DOT_WORD}[\p{L}\p{N}-]{1,63}){1,7})`,
  'giu',
);

/** What {@link WITH_AT_WORD} cannot match without: an at-word after a space or an opening bracket, before a space or a closing one (same flags, same case folding). */
const AT_WORD_BETWEEN = new RegExp(String.raw`[\s([{](?:${AT_WORDS})[\s)\]}]`, 'iu');

/** Domains reserved for examples and tests (RFC 2606, RFC 6761): no real person reads them. */
const RESERVED_DOMAIN = /(?:^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost)$/i;

/** Image density suffixes such as `logo@2x.png` look like addresses and are not. */
const DENSITY_SUFFIX = /^\d+x\./i;

/** The words of an obfuscated address, reduced to `local@domain` for the checks above. */
function normalised(address: string): string {
  return address
    .replace(/\s*[([{]\s*(?:at|ät|arobase|arroba|chez|snabel-a|eta)\s*[)\]}]\s*|\s(?:at|ät|arobase|arroba|chez|snabel-a|eta)\s/giu, '@')
    .replace(
      /\s*[([{]\s*(?:dot|point|punto|punktum|punkt|taškas|taskas)\s*[)\]}]\s*|\s(?:dot|point|punto|punktum|punkt|taškas|taskas)\s/giu,
      '.',
    )
    .replace(/\s+/g, '');
}

/**
 * E-mail addresses, the plain form (`local@domain.tld`) and the forms people use to dodge scrapers
 * or write in a hurry (see {@link WITH_AT_SIGN} and {@link WITH_AT_WORD}). The screening errs toward exclusion: an address cut
 * short still names a person. Addresses at domains reserved for documentation (example.com,
 * *.test, …), `name@2x.png` file names and version pins (`vite@8.3.8`) are skipped.
 */
export function findEmails(text: string): Span[] {
  const found: Span[] = [];
  // The patterns are costly on long texts, and most texts hold no address: each runs only when the
  // text has what it cannot match without (an @; an at-word between spaces or brackets).
  const atSign = text.includes('@');
  if (atSign)
    for (const match of text.matchAll(EMAIL)) {
      const address = match[0];
      const domain = address.slice(address.lastIndexOf('@') + 1);
      const local = address.slice(0, address.lastIndexOf('@'));
      if (RESERVED_DOMAIN.test(domain) || DENSITY_SUFFIX.test(domain) || /^[.]|[.]$/.test(local) || isSshRemote(text, match)) continue;
      found.push({ start: match.index, end: match.index + address.length });
    }
  const spelled = [...(atSign ? text.matchAll(WITH_AT_SIGN) : []), ...(AT_WORD_BETWEEN.test(text) ? text.matchAll(WITH_AT_WORD) : [])];
  for (const match of spelled) {
    const address = normalised(match[0]);
    const at = address.lastIndexOf('@');
    const local = address.slice(0, at);
    const domain = address.slice(at + 1);
    if (at <= 0 || !/\p{L}/u.test(local) || RESERVED_DOMAIN.test(domain) || DENSITY_SUFFIX.test(domain) || isSshRemote(text, match))
      continue;
    found.push({ start: match.index, end: match.index + match[0].length });
  }
  return firstOfOverlapping(found);
}

/** `git@github.com:user/repo.git`: a host to clone from, not a person's address. */
function isSshRemote(text: string, match: RegExpMatchArray): boolean {
  return /^git@/i.test(match[0]) && text[match.index! + match[0].length] === ':';
}

/** The spans by start, each dropped when it overlaps one kept before it: one sort, one pass. */
export function firstOfOverlapping(spans: Span[]): Span[] {
  const kept: Span[] = [];
  let end = -1;
  for (const span of spans.sort((left, right) => left.start - right.start || right.end - left.end)) {
    if (span.start < end) continue;
    kept.push(span);
    end = span.end;
  }
  return kept;
}
