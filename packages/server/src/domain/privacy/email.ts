import type { Span } from './pii-kind';

const EMAIL =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+'-]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,24}(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/gu;

/**
 * Addresses written so that machines miss them, or cut short. Two forms:
 * - with an `@`: spaces around it and around the dots (`paul . martin @ orange . fr`), or a domain
 *   with no top-level part (`paul.martin@orange`); spaces before the `@` count only with spaces
 *   after it, so a `@handle` after a word stays out;
 * - with a word for the `@`: `(at)`, `[at]`, or ` at ` / ` arobase ` when the dots are words too
 *   (`paul.martin at orange dot fr`); "available at github.com" is prose, not an address.
 */
const LOCAL = String.raw`[\p{L}\p{N}_%+'-]+(?:\s?\.\s?[\p{L}\p{N}_%+'-]+)*`;
const LABEL = String.raw`[\p{L}][\p{L}\p{N}-]*`;
const WITH_AT_SIGN = new RegExp(String.raw`(?<![\p{L}\p{N}._%+-])${LOCAL}(?:@|\s+@\s+)${LABEL}(?:\s?\.\s?[\p{L}\p{N}-]+)*`, 'gu');
const DOT_WORD = String.raw`(?:\s*[([{]\s*(?:dot|point)\s*[)\]}]\s*|\s+(?:dot|point)\s+)`;
const WITH_AT_WORD = new RegExp(
  String.raw`(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}_%+'-]+(?:\.[\p{L}\p{N}_%+'-]+)*` +
    String.raw`(?:\s*[([{]\s*(?:at|arobase)\s*[)\]}]\s*${LABEL}(?:(?:\.|${DOT_WORD})[\p{L}\p{N}-]+)+|\s+(?:at|arobase)\s+${LABEL}(?:${DOT_WORD}[\p{L}\p{N}-]+)+)`,
  'giu',
);

/** Domains reserved for examples and tests (RFC 2606, RFC 6761): no real person reads them. */
const RESERVED_DOMAIN = /(?:^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost)$/i;

/** Image density suffixes such as `logo@2x.png` look like addresses and are not. */
const DENSITY_SUFFIX = /^\d+x\./i;

/** The words of an obfuscated address, reduced to `local@domain` for the checks above. */
function normalised(address: string): string {
  return address
    .replace(/\s*[([{]\s*(?:at|arobase)\s*[)\]}]\s*|\s(?:at|arobase)\s/giu, '@')
    .replace(/\s*[([{]\s*(?:dot|point)\s*[)\]}]\s*|\s(?:dot|point)\s/giu, '.')
    .replace(/\s+/g, '');
}

/**
 * E-mail addresses, the plain form (`local@domain.tld`) and the forms people use to dodge scrapers
 * or write in a hurry (see {@link WITH_AT_SIGN} and {@link WITH_AT_WORD}). The screening errs toward exclusion: an address cut
 * short still names a person. Addresses at domains reserved for documentation (example.com,
 * *.test, …), `name@2x.png` file names and version pins (`vite@8.3.8`) are skipped.
 */
export function findEmails(text: string): Span[] {
  const spans: Span[] = [];
  const covered = (start: number, end: number) => spans.some((span) => span.start < end && start < span.end);
  for (const match of text.matchAll(EMAIL)) {
    const address = match[0];
    const domain = address.slice(address.lastIndexOf('@') + 1);
    const local = address.slice(0, address.lastIndexOf('@'));
    if (RESERVED_DOMAIN.test(domain) || DENSITY_SUFFIX.test(domain) || /^[.]|[.]$/.test(local)) continue;
    spans.push({ start: match.index, end: match.index + address.length });
  }
  for (const match of [...text.matchAll(WITH_AT_SIGN), ...text.matchAll(WITH_AT_WORD)]) {
    const start = match.index;
    const end = start + match[0].length;
    if (covered(start, end)) continue;
    const address = normalised(match[0]);
    const at = address.lastIndexOf('@');
    const local = address.slice(0, at);
    const domain = address.slice(at + 1);
    if (at <= 0 || !/\p{L}/u.test(local) || RESERVED_DOMAIN.test(domain) || DENSITY_SUFFIX.test(domain)) continue;
    spans.push({ start, end });
  }
  return spans.sort((left, right) => left.start - right.start);
}
