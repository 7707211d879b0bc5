import type { Span } from './pii-kind';

/**
 * A text rewritten for screening, with where each of its characters came from: `text[i]` stands for
 * `original.slice(starts[i], ends[i])`. A character that replaces several (an entity, a word for a
 * digit) points at all of them; a character left as it was points at itself. `null` maps mean the
 * text is the original.
 */
export interface MappedText {
  text: string;
  starts: readonly number[] | null;
  ends: readonly number[] | null;
}

export const unmapped = (text: string): MappedText => ({ text, starts: null, ends: null });

const startOf = (mapped: MappedText, index: number) => mapped.starts?.[index] ?? index;
const endOf = (mapped: MappedText, index: number) => mapped.ends?.[index] ?? index + 1;

/**
 * Replaces every match of `pattern` (global) for which `replace` returns a string (an empty match
 * inserts it); a match it returns `null` for stays as it was. The replacement's characters all point at the whole match in
 * the original. Linear in the text: one scan, one copy, and no copy at all when nothing changes.
 */
export function replaceMapped(mapped: MappedText, pattern: RegExp, replace: (match: RegExpExecArray) => string | null): MappedText {
  const { text } = mapped;
  const pieces: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let copied = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    // An empty match inserts: the replacement points at the empty span where it stands.
    if (match[0].length === 0) pattern.lastIndex += 1;
    const replacement = replace(match);
    if (replacement === null || replacement === match[0]) continue;
    for (let index = copied; index < match.index; index++) {
      starts.push(startOf(mapped, index));
      ends.push(endOf(mapped, index));
    }
    pieces.push(text.slice(copied, match.index), replacement);
    const inserted = match[0].length === 0;
    const from = inserted ? boundaryOf(mapped, match.index) : startOf(mapped, match.index);
    const to = inserted ? from : endOf(mapped, match.index + match[0].length - 1);
    for (let index = 0; index < replacement.length; index++) {
      starts.push(from);
      ends.push(to);
    }
    copied = match.index + match[0].length;
  }
  if (pieces.length === 0) return mapped;
  for (let index = copied; index < text.length; index++) {
    starts.push(startOf(mapped, index));
    ends.push(endOf(mapped, index));
  }
  pieces.push(text.slice(copied));
  return { text: pieces.join(''), starts, ends };
}

/** The original offset of the boundary before `index` (the end of the text when it is the last). */
const boundaryOf = (mapped: MappedText, index: number) =>
  index < mapped.text.length ? startOf(mapped, index) : index === 0 ? 0 : endOf(mapped, index - 1);

/** The span of the original text that `span` of the rewritten text stands for. */
export function originalSpan(mapped: MappedText, span: Span): Span {
  if (span.end <= span.start) return { start: startOf(mapped, span.start), end: startOf(mapped, span.start) };
  return { start: startOf(mapped, span.start), end: endOf(mapped, span.end - 1) };
}
