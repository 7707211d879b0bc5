import type { StyleCounts, VoteTable } from './vote-table';

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
 * Style counts of one side's assistant messages with FastChat's rules (docs/ranking.md#style-control): tokens of the
 * raw text; then, with fenced ``` blocks removed, headers `^#{1,6}\s`, list items `^\s*\d+\.\s` and
 * `^\s*[-*+]\s`, bold `\*\*[^*\n]+\*\*` and `__[^_\n]+__`. Counts are summed over the messages.
 */
export function countStyleElements(assistantMessages: readonly string[], countTokens: TokenCounter): StyleCounts {
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

/**
 * The votes of a style fit, regrouped by ordered pair (a, b) so that the fit reads each pair's
 * strengths once per run and keeps its sums in registers, with their standardised features.
 */
export interface StyleRows {
  readonly modelCount: number;
  /** Indices (into the 4 features) of the features that vary and enter the fit. */
  readonly active: readonly number[];
  /** Votes. */
  readonly length: number;
  /** Model A and model B of each run of votes of one ordered pair. */
  readonly runA: Int32Array;
  readonly runB: Int32Array;
  /** Votes of run r are [runStart[r], runStart[r + 1]). */
  readonly runStart: Int32Array;
  /** Outcome code of each vote (see `OUTCOME_CODE`). */
  readonly outcome: Uint8Array;
  /** x = (d − mean) / std_pop, 4 values per vote; a constant feature's column is all zeros. */
  readonly x: Float64Array;
  /** Row of the vote table each vote comes from. */
  readonly order: Int32Array;
  /** Optional replicate weight of each vote (bootstrap); 1 when absent. */
  readonly weights?: Float64Array | undefined;
}

/** The standardised style design of a vote table. */
export interface StyleDesign {
  /** Indices (into the 4 features) of the features that vary and enter the fit. */
  readonly active: readonly number[];
  /** Mean of d for each of the 4 features. */
  readonly meanD: readonly number[];
  /** Population standard deviation of d for each of the 4 features; 0 marks a constant column. */
  readonly stdD: readonly number[];
  readonly rows: StyleRows;
}

/** Table rows sorted by ordered pair (a·m + b), stable. */
function pairOrder(table: VoteTable): Int32Array {
  const m = table.models.length;
  const n = table.length;
  const order = new Int32Array(n);
  if (m * m <= 1 << 24) {
    const starts = new Int32Array(m * m + 1);
    for (let row = 0; row < n; row++) starts[table.modelA[row]! * m + table.modelB[row]! + 1]! += 1;
    for (let key = 0; key < m * m; key++) starts[key + 1]! += starts[key]!;
    for (let row = 0; row < n; row++) order[starts[table.modelA[row]! * m + table.modelB[row]!]!++] = row;
    return order;
  }
  const rows = Array.from({ length: n }, (_, row) => row);
  rows.sort((x, y) => table.modelA[x]! * m + table.modelB[x]! - (table.modelA[y]! * m + table.modelB[y]!) || x - y);
  order.set(rows);
  return order;
}

/**
 * Builds the standardised style features of every vote (docs/ranking.md#style-control), regrouped by pair for the
 * fit. A feature whose d is constant over the votes (std 0) is left out of the fit; its β is
 * reported as 0.
 *
 * @throws Error when some vote has no style counts.
 */
export function buildStyleDesign(table: VoteTable, rule: StyleRule = 'fastchat', weight?: Float64Array): StyleDesign {
  const style = table.style;
  if (!style || table.votesWithStyle !== table.length) {
    throw new Error(`style control needs style counts on every vote (${table.votesWithStyle} of ${table.length} have them)`);
  }
  const n = table.length;
  const m = table.models.length;
  const order = pairOrder(table);
  const position = new Int32Array(n);
  for (let vote = 0; vote < n; vote++) position[order[vote]!] = vote;
  const x = new Float64Array(n * 4);
  const sums = [0, 0, 0, 0];
  const squares = [0, 0, 0, 0];
  const offset = rule === 'fastchat' ? 1 : 0;
  // With vote weights the features are standardised over the weighted votes: a vote of weight k
  // then stands exactly for k copies (docs/ranking.md#weights-and-clusters).
  let total = 0;
  // one sequential pass over the counts, writing each vote's 4 features at its grouped position
  for (let row = 0; row < n; row++) {
    const base = position[row]! * 4;
    const w = weight === undefined ? 1 : weight[row]!;
    total += w;
    for (let feature = 0; feature < 4; feature++) {
      const a = style[row * 8 + feature * 2]!;
      const b = style[row * 8 + feature * 2 + 1]!;
      const sum = a + b + offset;
      const value = sum === 0 ? 0 : (a - b) / sum;
      x[base + feature] = value;
      sums[feature]! += w * value;
      squares[feature]! += w * value * value;
    }
  }
  const meanD = sums.map((sum) => (total > 0 ? sum / total : 0));
  // d lies in [−1, 1], so E[d²] − mean² is accurate to ~1e-16 in the variance; only a (nearly)
  // constant column needs the exact two-pass sum to tell 0 from rounding noise.
  const stdD = squares.map((sum, feature) => {
    const mean = meanD[feature]!;
    let std = total > 0 ? Math.sqrt(Math.max(0, sum / total - mean * mean)) : 0;
    if (std < 1e-6 * Math.max(1, Math.abs(mean))) {
      let exact = 0;
      for (let vote = 0; vote < n; vote++)
        exact += (weight === undefined ? 1 : weight[order[vote]!]!) * (x[vote * 4 + feature]! - mean) ** 2;
      std = total > 0 ? Math.sqrt(exact / total) : 0;
    }
    return std <= 1e-12 * Math.max(1, Math.abs(mean)) ? 0 : std;
  });
  const inverse = stdD.map((std) => (std === 0 ? 0 : 1 / std));
  for (let vote = 0; vote < n; vote++) {
    for (let feature = 0; feature < 4; feature++) {
      x[vote * 4 + feature] = (x[vote * 4 + feature]! - meanD[feature]!) * inverse[feature]!;
    }
  }
  const active = [0, 1, 2, 3].filter((feature) => stdD[feature]! > 0);
  const { runA, runB, runStart, outcome } = pairRuns(table, order);
  return { active, meanD, stdD, rows: { modelCount: m, active, length: n, runA, runB, runStart, outcome, x, order } };
}

/** The outcome of each vote in grouped order, and the runs of consecutive votes of one ordered pair (a, b). */
function pairRuns(table: VoteTable, order: Int32Array): Pick<StyleRows, 'runA' | 'runB' | 'runStart' | 'outcome'> {
  const n = table.length;
  const m = table.models.length;
  const outcome = new Uint8Array(n);
  const runs: number[] = [];
  let previous = -1;
  for (let vote = 0; vote < n; vote++) {
    const row = order[vote]!;
    outcome[vote] = table.outcome[row]!;
    const key = table.modelA[row]! * m + table.modelB[row]!;
    if (key !== previous) {
      runs.push(vote);
      previous = key;
    }
  }
  const runStart = Int32Array.from([...runs, n]);
  const runA = Int32Array.from(runs, (vote) => table.modelA[order[vote]!]!);
  const runB = Int32Array.from(runs, (vote) => table.modelB[order[vote]!]!);
  return { runA, runB, runStart, outcome };
}
