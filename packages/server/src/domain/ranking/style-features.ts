import { type StyleCounts, type VoteTable } from './vote-table';

/** Counts the tokens of a text (the caller picks the tokenizer; FastChat used cl100k_base). */
export type TokenCounter = (text: string) => number;

const FENCED_CODE = /```[^`]*```/g;
const HEADER = /^#{1,6}\s/gm;
const ORDERED_ITEM = /^\s*\d+\.\s/gm;
const UNORDERED_ITEM = /^\s*[-*+]\s/gm;
const BOLD_STARS = /\*\*[^*\n]+\*\*/g;
const BOLD_UNDERSCORES = /__[^_\n]+__/g;

function countMatches(text: string, pattern: RegExp): number {
  pattern.lastIndex = 0;
  let count = 0;
  while (pattern.exec(text) !== null) count += 1;
  return count;
}

/**
 * Style counts of one side's assistant messages with FastChat's rules (spec §2.7): tokens of the
 * raw text; then, with fenced ``` blocks removed, headers `^#{1,6}\s`, list items `^\s*\d+\.\s` and
 * `^\s*[-*+]\s`, bold `\*\*[^*\n]+\*\*` and `__[^_\n]+__`. Counts are summed over the messages.
 */
export function countStyleElements(
  assistantMessages: readonly string[],
  countTokens: TokenCounter,
): StyleCounts {
  const counts: StyleCounts = { len: 0, headers: 0, lists: 0, bold: 0 };
  for (const message of assistantMessages) {
    counts.len += countTokens(message);
    const prose = message.replace(FENCED_CODE, '');
    counts.headers += countMatches(prose, HEADER);
    counts.lists += countMatches(prose, ORDERED_ITEM) + countMatches(prose, UNORDERED_ITEM);
    counts.bold += countMatches(prose, BOLD_STARS) + countMatches(prose, BOLD_UNDERSCORES);
  }
  return counts;
}

/**
 * How a pair of counts becomes one feature: FastChat's d = (a − b)/(a + b + 1), or compar:IA's
 * d = (a − b)/(a + b) with 0 when a + b = 0.
 */
export type StyleRule = 'fastchat' | 'compar';

/** The standardised style design of a vote table. */
export interface StyleDesign {
  /** Indices (into {@link STYLE_FEATURES}) of the features that vary and enter the fit. */
  readonly active: readonly number[];
  /**
   * x = (d − mean) / std_pop, always 4 values per vote in {@link STYLE_FEATURES} order; a
   * constant feature's column is all zeros.
   */
  readonly x: Float64Array;
  /** Mean of d for each of the 4 features. */
  readonly meanD: readonly number[];
  /** Population standard deviation of d for each of the 4 features; 0 marks a constant column. */
  readonly stdD: readonly number[];
}

/**
 * Builds the standardised style features of every vote (spec §2.7). A feature whose d is constant
 * over the votes (std 0) is left out of the fit; its β is reported as 0.
 *
 * @throws Error when some vote has no style counts.
 */
export function buildStyleDesign(table: VoteTable, rule: StyleRule = 'fastchat'): StyleDesign {
  const style = table.style;
  if (!style || table.votesWithStyle !== table.length) {
    throw new Error(
      `style control needs style counts on every vote (${table.votesWithStyle} of ${table.length} have them)`,
    );
  }
  const n = table.length;
  const x = new Float64Array(n * 4);
  const meanD: number[] = [];
  const stdD: number[] = [];
  const offset = rule === 'fastchat' ? 1 : 0;
  for (let feature = 0; feature < 4; feature++) {
    let sum = 0;
    for (let row = 0; row < n; row++) {
      const a = style[row * 8 + feature * 2]!;
      const b = style[row * 8 + feature * 2 + 1]!;
      const total = a + b + offset;
      const value = total === 0 ? 0 : (a - b) / total;
      x[row * 4 + feature] = value;
      sum += value;
    }
    const mean = n > 0 ? sum / n : 0;
    let squares = 0;
    for (let row = 0; row < n; row++) squares += (x[row * 4 + feature]! - mean) ** 2;
    const std = n > 0 ? Math.sqrt(squares / n) : 0;
    const constant = std <= 1e-12 * Math.max(1, Math.abs(mean));
    meanD.push(mean);
    stdD.push(constant ? 0 : std);
    const inverse = constant ? 0 : 1 / std;
    for (let row = 0; row < n; row++) x[row * 4 + feature] = (x[row * 4 + feature]! - mean) * inverse;
  }
  const active = [0, 1, 2, 3].filter((feature) => stdD[feature]! > 0);
  return { active, x, meanD, stdD };
}
