/**
 * A reply as the judge reads it: the same words without presentation (headers, emphasis, list
 * markers, quotes, rules), so that a reply wins on substance and not on formatting — compar:IA's
 * style control applied to the judge. Code blocks are substance and stay as they are.
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
    const plain = line
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
