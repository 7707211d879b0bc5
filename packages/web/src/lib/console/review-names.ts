import type { PiiSpan, ReviewItemBody } from '@agora/contract';
import { fr as reviewMessages } from '$lib/i18n/console-review/fr';
import { type MessageKey, i18n, t } from '$lib/i18n/index.svelte';

/** A catalogue key of the review area, if the code has one (rule and flag names are codes; an unknown code is shown as is). */
function named(prefix: string, code: string): string {
  const key = `${prefix}${code}`;
  return key in reviewMessages ? t(key as MessageKey) : code;
}

/** A personal-data kind (either screening layer's) in the member's language. */
export const kindName = (kind: string): string => named('console.review.kind.', kind);

/** A vote-integrity flag in the member's language. */
export const flagName = (flag: string): string => named('console.integrity.flag.', flag);

export const listOf = (names: readonly string[]): string => new Intl.ListFormat(i18n.locale, { type: 'conjunction' }).format(names);

/** Why a conversation is in the review queue, one sentence per reason, in words. */
export function reasonsOf(item: ReviewItemBody): string[] {
  const reasons: string[] = [];
  if (item.flagged_by.rules.length > 0) reasons.push(t('console.review.why_rules', { kinds: listOf(item.flagged_by.rules.map(kindName)) }));
  if (item.flagged_by.model.length > 0) reasons.push(t('console.review.why_model', { kinds: listOf(item.flagged_by.model.map(kindName)) }));
  for (const report of item.reports) {
    let sentence = t('console.review.why_report', { category: t(`report.category.${report.category}` as MessageKey) });
    if (report.turn !== null && report.side !== null)
      sentence += ` ${t('console.review.report_of_answer', { turn: report.turn, side: report.side.toUpperCase() })}`;
    if (report.reason.trim() !== '') sentence += ` ${t('console.review.report_reason', { reason: report.reason })}`;
    reasons.push(sentence);
  }
  if (item.screening === 'failed') reasons.push(t('console.review.why_failed'));
  return reasons;
}

/** A text cut at the spans the rules found: plain stretches and found ones (with their kind). */
export function segmentsOf(text: string, spans: readonly PiiSpan[]): { text: string; kind: string | null }[] {
  const segments: { text: string; kind: string | null }[] = [];
  let at = 0;
  for (const span of [...spans].sort((left, right) => left.start - right.start)) {
    if (span.start < at) continue;
    if (span.start > at) segments.push({ text: text.slice(at, span.start), kind: null });
    segments.push({ text: text.slice(span.start, span.end), kind: span.kind });
    at = span.end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), kind: null });
  return segments;
}

export const dateTime = (iso: string): string =>
  new Intl.DateTimeFormat(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
