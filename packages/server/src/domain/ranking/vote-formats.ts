import { DEFAULT_EXCLUDED_FLAGS } from './arena-matches';
import { countStyleElements, type TokenCounter } from './style-features';
import { OUTCOME_CODE, type StyleCounts } from './vote-table';

/**
 * Vote file formats, detected from the rows:
 * - `agora`: our rows `{model_a, model_b, winner, len_a…bold_b?, flags?}` (also the ranking
 *   fixtures), winner ∈ model_a, model_b, tie, both_bad (aliases tie_bothbad, "tie (bothbad)");
 * - `fastchat`: FastChat/LMArena battles, the same three keys, style counts in `conv_metadata`;
 * - `comparia`: compar:IA `votes` rows `{model_a_name, model_b_name, chosen_model_name,
 *   both_equal, conversation_pair_id, both_bad?}`.
 */
export type VoteFileFormat = 'agora' | 'fastchat' | 'comparia';

/** A problem with one row; the reader adds the file name and line. */
export class VoteRowError extends Error {
  override readonly name = 'VoteRowError';
}

/** Why a valid row does not become a vote. */
export type SkipReason = 'flagged' | 'duplicate' | 'no_outcome';

/**
 * One row turned into a vote (style counts in `VoteTable.style` order), or skipped. Converters
 * reuse one object (and one style buffer) for every row: copy what you keep.
 */
export interface ConvertedRow {
  skip: SkipReason | undefined;
  modelA: string;
  modelB: string;
  outcome: number;
  style: Uint32Array | undefined;
}

/** Options of the row converters. */
export interface RowOptions {
  /** Flags that exclude a row (default `identity_leak`, `abuse`). */
  excludeFlags?: readonly string[] | undefined;
  /** Count style from the conversation text when a row has no counts (needs `countTokens`). */
  styleFromText?: boolean | undefined;
  countTokens?: TokenCounter | undefined;
}

const WINNERS: ReadonlyMap<string, number> = new Map([
  ['model_a', OUTCOME_CODE.model_a],
  ['model_b', OUTCOME_CODE.model_b],
  ['tie', OUTCOME_CODE.tie],
  ['both_bad', OUTCOME_CODE.both_bad],
  ['tie_bothbad', OUTCOME_CODE.both_bad],
  ['tie (bothbad)', OUTCOME_CODE.both_bad],
]);

/** The fields each format reads (a Parquet reader decodes only these columns). */
export const FORMAT_COLUMNS: Readonly<Record<VoteFileFormat, readonly string[]>> = {
  agora: [
    'model_a',
    'model_b',
    'winner',
    'len_a',
    'len_b',
    'headers_a',
    'headers_b',
    'lists_a',
    'lists_b',
    'bold_a',
    'bold_b',
    'flags',
    'identity_leak',
    'abuse',
  ],
  fastchat: ['model_a', 'model_b', 'winner', 'conv_metadata', 'flags', 'identity_leak', 'abuse'],
  comparia: ['model_a_name', 'model_b_name', 'chosen_model_name', 'both_equal', 'both_bad', 'conversation_pair_id'],
};

/** Extra columns read only to count style from text. */
export const TEXT_COLUMNS: Readonly<Record<VoteFileFormat, readonly string[]>> = {
  agora: ['conversation_a', 'conversation_b'],
  fastchat: ['conversation_a', 'conversation_b'],
  comparia: ['conversation_a', 'conversation_b', 'total_conv_a_output_tokens', 'total_conv_b_output_tokens'],
};

/** Detects the format of a file from its first row (or its column names). */
export function detectFormat(keys: readonly string[]): VoteFileFormat {
  const has = new Set(keys);
  if (has.has('model_a_name') && has.has('model_b_name')) return 'comparia';
  if (has.has('model_a') && has.has('model_b') && has.has('winner')) {
    return has.has('conv_metadata') ? 'fastchat' : 'agora';
  }
  throw new VoteRowError(
    `unrecognised vote row (keys: ${keys.slice(0, 12).join(', ') || 'none'}): expected model_a, model_b and winner (Agora, fixtures, FastChat) or model_a_name, model_b_name and chosen_model_name (compar:IA votes)`,
  );
}

/** A converter from records of `format` to votes; it keeps the de-duplication state. */
export function createRowConverter(format: VoteFileFormat, options: RowOptions = {}): (record: Record<string, unknown>) => ConvertedRow {
  const excluded = new Set(options.excludeFlags ?? DEFAULT_EXCLUDED_FLAGS);
  if (format === 'comparia') return comparIaConverter(options);
  const row = emptyRow();
  const scratch = new Uint32Array(8);
  return (record) => {
    row.skip = isFlagged(record, excluded) ? 'flagged' : undefined;
    if (row.skip) return row;
    const modelA = modelName(record, 'model_a');
    const modelB = modelName(record, 'model_b');
    const winner = record.winner;
    const outcome = typeof winner === 'string' ? WINNERS.get(winner) : undefined;
    if (outcome === undefined) {
      throw new VoteRowError(
        `unknown winner ${JSON.stringify(winner)}: expected model_a, model_b, tie, both_bad, tie_bothbad or "tie (bothbad)"`,
      );
    }
    row.modelA = modelA;
    row.modelB = modelB;
    row.outcome = outcome;
    row.style = flatStyle(record, scratch) ?? fastChatStyle(record.conv_metadata, scratch) ?? textStyle(record, options, 'agora', scratch);
    return row;
  };
}

function emptyRow(): ConvertedRow {
  return { skip: undefined, modelA: '', modelB: '', outcome: 0, style: undefined };
}

function comparIaConverter(options: RowOptions): (record: Record<string, unknown>) => ConvertedRow {
  const seenPairs = new Set<string>();
  const row = emptyRow();
  const scratch = new Uint32Array(8);
  const skip = (reason: SkipReason): ConvertedRow => {
    row.skip = reason;
    return row;
  };
  return (record) => {
    const pairId = record.conversation_pair_id;
    if (typeof pairId === 'string' || typeof pairId === 'number') {
      const key = String(pairId);
      if (seenPairs.has(key)) return skip('duplicate');
      seenPairs.add(key);
    }
    const modelA = modelName(record, 'model_a_name');
    const modelB = modelName(record, 'model_b_name');
    const outcome = comparIaOutcome(record, modelA, modelB);
    if (outcome === undefined) return skip('no_outcome');
    row.skip = undefined;
    row.modelA = modelA;
    row.modelB = modelB;
    row.outcome = OUTCOME_CODE[outcome];
    row.style = textStyle(record, options, 'comparia', scratch);
    return row;
  };
}

/**
 * The outcome of a compar:IA vote row: `both_bad` (an Agora column, honoured when present), then
 * `both_equal`, then `chosen_model_name` against the two model names; undefined when the row has
 * none (no choice and not equal). A chosen name that is neither model is a {@link VoteRowError}.
 */
export function comparIaOutcome(
  record: Record<string, unknown>,
  modelA: string,
  modelB: string,
): 'model_a' | 'model_b' | 'tie' | 'both_bad' | undefined {
  const chosen = record.chosen_model_name;
  if (record.both_bad === true) return 'both_bad';
  if (record.both_equal === true) return 'tie';
  if (chosen === null || chosen === undefined || chosen === '') return undefined;
  if (chosen === modelA) return 'model_a';
  if (chosen === modelB) return 'model_b';
  throw new VoteRowError(`chosen_model_name ${JSON.stringify(chosen)} is neither model_a_name (${modelA}) nor model_b_name (${modelB})`);
}

function modelName(record: Record<string, unknown>, key: string): string {
  const value = record[key];
  if (typeof value !== 'string' || value.length === 0) {
    throw new VoteRowError(`${key} must be a non-empty string (got ${JSON.stringify(value) ?? 'nothing'})`);
  }
  return value;
}

function isFlagged(record: Record<string, unknown>, excluded: ReadonlySet<string>): boolean {
  if (excluded.size === 0) return false;
  const flags = record.flags;
  if (flags !== undefined && Array.isArray(flags)) {
    if (flags.some((flag) => typeof flag === 'string' && excluded.has(flag))) return true;
  }
  // static property reads for the usual flags keep this off the slow keyed-lookup path
  if ((record.identity_leak === true && excluded.has('identity_leak')) || (record.abuse === true && excluded.has('abuse'))) {
    return true;
  }
  for (const flag of excluded) {
    if (flag !== 'identity_leak' && flag !== 'abuse' && record[flag] === true) return true;
  }
  return false;
}

function count(raw: unknown, field: string): number {
  if (typeof raw === 'number' && raw >= 0 && raw <= 0xffffffff && Math.floor(raw) === raw) return raw;
  const value = typeof raw === 'bigint' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new VoteRowError(`${field} must be a non-negative integer (got ${String(JSON.stringify(value))})`);
  }
  return value;
}

function flatStyle(record: Record<string, unknown>, out: Uint32Array): Uint32Array | undefined {
  const { len_a, len_b } = record;
  if (len_a === undefined && len_b === undefined) return undefined;
  out[0] = count(len_a, 'len_a');
  out[1] = count(len_b, 'len_b');
  out[2] = count(record.headers_a, 'headers_a');
  out[3] = count(record.headers_b, 'headers_b');
  out[4] = count(record.lists_a, 'lists_a');
  out[5] = count(record.lists_b, 'lists_b');
  out[6] = count(record.bold_a, 'bold_a');
  out[7] = count(record.bold_b, 'bold_b');
  return out;
}

/** FastChat `conv_metadata`: token sums and per-kind header, list and bold counts. */
function fastChatStyle(metadata: unknown, out: Uint32Array): Uint32Array | undefined {
  if (metadata === null || typeof metadata !== 'object') return undefined;
  const fields = metadata as Record<string, unknown>;
  if (fields.sum_assistant_a_tokens === undefined) return undefined;
  const total = (value: unknown, field: string): number => {
    if (value !== null && typeof value === 'object') {
      return Object.entries(value as Record<string, unknown>).reduce(
        (sum, [key, inner]) => sum + count(inner, `conv_metadata.${field}.${key}`),
        0,
      );
    }
    return count(value, `conv_metadata.${field}`);
  };
  (['a', 'b'] as const).forEach((side, offset) => {
    out[offset] = count(fields[`sum_assistant_${side}_tokens`], `conv_metadata.sum_assistant_${side}_tokens`);
    out[2 + offset] = total(fields[`header_count_${side}`], `header_count_${side}`);
    out[4 + offset] = total(fields[`list_count_${side}`], `list_count_${side}`);
    out[6 + offset] = total(fields[`bold_count_${side}`], `bold_count_${side}`);
  });
  return out;
}

/** Style counted from `conversation_a` / `conversation_b` messages (assistant turns). */
function textStyle(
  record: Record<string, unknown>,
  options: RowOptions,
  format: VoteFileFormat,
  out: Uint32Array,
): Uint32Array | undefined {
  if (!options.styleFromText || !options.countTokens) return undefined;
  const sides = [record.conversation_a, record.conversation_b].map(assistantTexts);
  if (sides.some((texts) => texts === undefined)) return undefined;
  const counts = sides.map((texts) => countStyleElements(texts!, options.countTokens!)) as [StyleCounts, StyleCounts];
  if (format === 'comparia') {
    const tokensA = toNumber(record.total_conv_a_output_tokens);
    const tokensB = toNumber(record.total_conv_b_output_tokens);
    if (tokensA !== undefined && tokensB !== undefined) {
      counts[0].len = count(Math.round(tokensA), 'total_conv_a_output_tokens');
      counts[1].len = count(Math.round(tokensB), 'total_conv_b_output_tokens');
    }
  }
  const [a, b] = counts;
  out.set([a.len, b.len, a.headers, b.headers, a.lists, b.lists, a.bold, b.bold]);
  return out;
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function assistantTexts(conversation: unknown): string[] | undefined {
  if (!Array.isArray(conversation)) return undefined;
  const texts: string[] = [];
  for (const message of conversation) {
    if (message === null || typeof message !== 'object') continue;
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (role !== 'assistant') continue;
    if (typeof content === 'string') texts.push(content);
    else if (Array.isArray(content)) {
      for (const part of content) {
        const text = (part as { text?: unknown } | null)?.text;
        if (typeof text === 'string') texts.push(text);
      }
    }
  }
  return texts;
}
