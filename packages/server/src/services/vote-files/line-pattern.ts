const PRIMITIVE = String.raw`("[^"\\\u0000-\u001f]*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)`;

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function decode(token: string): unknown {
  switch (token.charCodeAt(0)) {
    case 0x22:
      return token.slice(1, -1);
    case 0x74:
      return true;
    case 0x66:
      return false;
    case 0x6e:
      return null;
    default:
      return +token;
  }
}

/** JSON whitespace inside one line (a newline would end the line). */
const SPACE = String.raw`[ \t\r]*`;

/**
 * A compiled, sticky regular expression for the layout of a file's first row: the same keys in
 * the same order, each with a primitive value (a string without escapes, a number, true, false or
 * null), JSON whitespace, up to and including the end of the line. A line it matches is valid JSON
 * with exactly those values, so it can skip `JSON.parse`; any other line (nested values, escapes,
 * other keys or order) does not match and goes to `JSON.parse`. Vote files are millions of lines
 * with one layout, and irregexp matches them in the decoded text directly, about twice as fast as
 * JSON.parse builds objects.
 */
export class LinePattern {
  private readonly pattern: RegExp;
  /** Capture group of each wanted field, or 0 when the layout lacks it. */
  private readonly groups: number[];
  private found: RegExpExecArray | null = null;
  /** Value of wanted field `index` in the last match (one closure for the whole file). */
  private readonly valueAt = (index: number): unknown => {
    const group = this.groups[index]!;
    return group > 0 ? decode(this.found![group]!) : undefined;
  };

  private constructor(keys: readonly string[], fields: readonly string[]) {
    const body = keys
      .map((key) => `"${escapeForPattern(key)}"${SPACE}:${SPACE}${PRIMITIVE}`)
      .join(`${SPACE},${SPACE}`);
    this.pattern = new RegExp(`${SPACE}\\{${SPACE}${body}${SPACE}\\}${SPACE}(?:\\n|$)`, 'y');
    this.groups = fields.map((field) => keys.lastIndexOf(field) + 1);
  }

  /**
   * The pattern of `record`'s layout, or undefined when a value is not primitive or a key needs
   * escaping (then every line goes to JSON.parse).
   *
   * @param fields the fields the caller reads, in the order `shape` expects them.
   */
  static of(record: Record<string, unknown>, fields: readonly string[]): LinePattern | undefined {
    const keys = Object.keys(record);
    if (keys.length === 0 || keys.length > 64) return undefined;
    for (const key of keys) {
      const value = record[key];
      if (value !== null && typeof value === 'object') return undefined;
      if (/["\\\u0000-\u001f]/.test(key)) return undefined;
    }
    return new LinePattern(keys, fields);
  }

  /**
   * Matches the line starting at `position` of `text`. Returns the position after its newline,
   * or −1 when the line does not have this layout.
   */
  matchAt(text: string, position: number): number {
    this.pattern.lastIndex = position;
    this.found = this.pattern.exec(text);
    return this.found === null ? -1 : this.pattern.lastIndex;
  }

  /**
   * The wanted fields of the last match, built by `shape` from the values in `fields` order (an
   * object literal with fixed keys keeps property reads fast downstream); absent fields are
   * undefined.
   */
  record<T>(shape: (value: (index: number) => unknown) => T): T {
    return shape(this.valueAt);
  }

  /** The wanted fields of a whole line, or undefined when it does not have this layout. */
  match<T>(line: string, shape: (value: (index: number) => unknown) => T): T | undefined {
    const end = this.matchAt(line, 0);
    return end === line.length ? this.record(shape) : undefined;
  }
}
