import type { Span } from './pii-kind';

const EMAIL =
  /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+'-]+@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+\p{L}{2,24}(?![\p{L}\p{N}-]|\.[\p{L}\p{N}])/gu;

/** Domains reserved for examples and tests (RFC 2606, RFC 6761): no real person reads them. */
const RESERVED_DOMAIN = /(?:^|\.)(?:example\.(?:com|net|org)|example|test|invalid|localhost)$/i;

/** Image density suffixes such as `logo@2x.png` look like addresses and are not. */
const DENSITY_SUFFIX = /^\d+x\./i;

/**
 * E-mail addresses: `local@domain.tld` with a letter-only top-level domain. Addresses at domains
 * reserved for documentation (example.com, *.test, …) and `name@2x.png` file names are skipped.
 */
export function findEmails(text: string): Span[] {
  const spans: Span[] = [];
  for (const match of text.matchAll(EMAIL)) {
    const address = match[0];
    const domain = address.slice(address.lastIndexOf('@') + 1);
    const local = address.slice(0, address.lastIndexOf('@'));
    if (RESERVED_DOMAIN.test(domain) || DENSITY_SUFFIX.test(domain) || /^[.]|[.]$/.test(local)) continue;
    spans.push({ start: match.index, end: match.index + address.length });
  }
  return spans;
}
