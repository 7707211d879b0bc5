/**
 * A reply as the judge reads it: the same words without presentation (headers, emphasis, list
 * markers, quotes, rules, tables, links, images and HTML tags), so that a reply wins on substance and
 * not on formatting — compar:IA's style control applied to the judge. A table's cells become a line
 * of values separated by commas; a link keeps its words, an image its alternative text. Code blocks
 * are substance and stay as they are.
 */
export function neutraliseFormatting(text: string): string {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const out: string[] = [];
  let inCode = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) {
      inCode = !inCode;
      out.push(line);
      continue;
    }
    if (inCode) {
      out.push(line);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) continue;
    // A table's separator row (| --- | :-: |) carries no words.
    if (/^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)+\|?\s*$/.test(line) || /^\s*\|\s*:?-+:?\s*\|\s*$/.test(line)) continue;
    const plain = withoutTableBars(withoutLinksAndTags(line))
      .replace(/^\s{0,3}#{1,6}\s+/, '')
      .replace(/^\s*>\s?/, '')
      .replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/, '')
      .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
      .replace(/(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])/g, '$2')
      .trimEnd();
    if (plain === '' && out.at(-1) === '') continue;
    out.push(plain);
  }
  return out.join('\n').trim();
}

/** The HTML elements a model's reply may carry for presentation; anything else between < and > is text (x<y, List<String>). */
const HTML_TAG = new RegExp(
  `</?(?:${['a', 'abbr', 'b', 'blockquote', 'br', 'center', 'code', 'del', 'details', 'div', 'em', 'font', 'h[1-6]', 'hr', 'i', 'img', 'ins', 'kbd', 'li', 'mark', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub', 'summary', 'sup', 'table', 'tbody', 'td', 'th', 'thead', 'tr', 'u', 'ul'].join('|')})(?:\\s[^<>]*)?/?>`,
  'gi',
);

/** Links as their words, images as their alternative text, HTML tags removed (their text kept); inline code untouched. */
function withoutLinksAndTags(line: string): string {
  // Inline code spans are substance: only the text between them is cleaned.
  return line
    .split(/(`[^`]*`)/)
    .map((part, index) =>
      index % 2 === 1
        ? part
        : part
            .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
            .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
            .replace(/<br\s*\/?>/gi, ' ')
            .replace(HTML_TAG, ''),
    )
    .join('');
}

/** A table row (`| a | b |`) as its cells separated by commas. */
function withoutTableBars(line: string): string {
  if (!/^\s*\|.*\|\s*$/.test(line)) return line;
  return line
    .trim()
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim())
    .filter((cell) => cell !== '')
    .join(', ');
}
