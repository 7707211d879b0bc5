import type { ImportedSide, ImportedTurn } from './imported';
import { countStyleElements, type TokenCounter } from '../ranking/style-features';
import { ComparIaRowError, describe, jsonOrNull, parseJsonText, plainValue } from './comparia-values';

/** One message of a compar:IA conversation column, its own extra fields kept. */
interface Message {
  role: string;
  content: string;
  /** The other fields (`reasoning_content`, `metadata`, …), null ones left out. */
  extra: Record<string, unknown>;
}

/** A conversation column split into the messages before the first user message and its turns. */
export interface SplitConversation {
  head: Message[];
  turns: { user: Message; assistant: Message | undefined }[];
}

/**
 * Reads `conversation_a` / `conversation_b`: a list of `{role, content, reasoning_content?,
 * metadata?}` (compar:IA puts the system prompt first, then user and assistant messages in turn).
 * Undefined when the column is null or empty.
 */
export function splitConversation(row: Record<string, unknown>, column: string): SplitConversation | undefined {
  let value = row[column];
  if (typeof value === 'string') value = parseJsonText(value, column);
  if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) return undefined;
  if (!Array.isArray(value)) throw new ComparIaRowError(`${column} must be a list of messages (got ${describe(value)})`);
  const messages = value.map((item, index) => readMessage(item, `${column}[${index}]`));
  const split: SplitConversation = { head: [], turns: [] };
  let index = 0;
  while (index < messages.length && messages[index]!.role === 'system') split.head.push(messages[index++]!);
  for (; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === 'user') {
      split.turns.push({ user: message, assistant: undefined });
    } else if (message.role === 'assistant' && split.turns.length > 0 && split.turns.at(-1)!.assistant === undefined) {
      split.turns.at(-1)!.assistant = message;
    } else {
      throw new ComparIaRowError(
        `${column}[${index}] is a ${message.role} message where a ${split.turns.at(-1)?.assistant === undefined && split.turns.length > 0 ? 'user or assistant' : 'user'} message was expected`,
      );
    }
  }
  if (split.turns.length === 0) throw new ComparIaRowError(`${column} has no user message`);
  return split;
}

function readMessage(item: unknown, where: string): Message {
  if (item === null || typeof item !== 'object' || Array.isArray(item))
    throw new ComparIaRowError(`${where} must be a message object (got ${describe(item)})`);
  const { role, content, ...rest } = item as Record<string, unknown>;
  if (role !== 'system' && role !== 'user' && role !== 'assistant')
    throw new ComparIaRowError(`${where}.role must be system, user or assistant (got ${describe(role)})`);
  if (typeof content !== 'string' && content !== null && content !== undefined)
    throw new ComparIaRowError(`${where}.content must be text (got ${describe(content)})`);
  const extra: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(rest)) if (inner !== null && inner !== undefined) extra[key] = plainValue(inner);
  return { role, content: content ?? '', extra };
}

/** The number of user messages before position `index` of a raw conversation column (the turn of an answer). */
export function turnOfMessage(row: Record<string, unknown>, column: string, index: number): number | undefined {
  let value = row[column];
  if (typeof value === 'string') value = parseJsonText(value, column);
  if (!Array.isArray(value) || index < 0 || index >= value.length) return undefined;
  if ((value[index] as { role?: unknown } | null)?.role !== 'assistant') return undefined;
  return value.slice(0, index).filter((message) => (message as { role?: unknown } | null)?.role === 'user').length;
}

/**
 * The turns of a conversation pair. A side with no answer to a prompt is a failed side (and its
 * turn a failed turn). Each answer gets the style counts the arena stores (tokens counted locally). Each side keeps its message's extra fields as `source_meta`: `metadata` and
 * any other field but `reasoning_content` (stored as the side's reasoning); side b also keeps its
 * prompt when it differs from side a's.
 */
export function buildTurns(
  a: SplitConversation,
  b: SplitConversation,
  modelA: string,
  modelB: string,
  countTokens: TokenCounter,
): ImportedTurn[] {
  const count = Math.max(a.turns.length, b.turns.length);
  const turns: ImportedTurn[] = [];
  for (let index = 0; index < count; index++) {
    const turnA = a.turns[index];
    const turnB = b.turns[index];
    const prompt = (turnA ?? turnB)!.user.content;
    const sideA = buildSide('a', modelA, turnA, prompt, countTokens);
    const sideB = buildSide('b', modelB, turnB, prompt, countTokens);
    turns.push({
      turn: index + 1,
      prompt,
      status: sideA.status === 'complete' && sideB.status === 'complete' ? 'complete' : 'failed',
      sides: [sideA, sideB],
    });
  }
  return turns;
}

/**
 * When no answer of a side says its output tokens (older rows, or files exported without message
 * metadata) but the row has the side's total (`total_conv_<side>_output_tokens`), the total is kept
 * on the side's last answer, so that the conversation's total survives a re-export.
 */
export function keepTokenTotals(turns: ImportedTurn[], totals: { a: number | null; b: number | null }): void {
  for (const [index, total] of [
    [0, totals.a],
    [1, totals.b],
  ] as const) {
    if (total === null || turns.some((turn) => turn.sides[index].outputTokens !== null)) continue;
    const last = turns.findLast((turn) => turn.sides[index].status === 'complete');
    if (last) last.sides[index].outputTokens = total;
  }
}

function buildSide(
  side: 'a' | 'b',
  modelId: string,
  turn: SplitConversation['turns'][number] | undefined,
  prompt: string,
  countTokens: TokenCounter,
): ImportedSide {
  const answer = turn?.assistant;
  const { reasoning_content: reasoning, ...extra } = answer?.extra ?? {};
  const meta: Record<string, unknown> = { ...extra };
  if (turn && turn.user.content !== prompt) meta.prompt = turn.user.content;
  if (turn && Object.keys(turn.user.extra).length > 0) meta.prompt_extra = turn.user.extra;
  const metadata = (extra.metadata ?? null) as Record<string, unknown> | null;
  const tokens = metadata?.output_tokens;
  const duration = metadata?.duration;
  return {
    side,
    modelId,
    text: answer?.content ?? '',
    reasoning: typeof reasoning === 'string' ? reasoning : null,
    outputTokens: typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0 ? tokens : null,
    durationMs: typeof duration === 'number' && Number.isFinite(duration) && duration >= 0 ? Math.round(duration * 1000) : null,
    status: answer ? 'complete' : 'failed',
    style: answer ? countStyleElements([answer.content], countTokens) : null,
    sourceMeta: jsonOrNull(meta),
  };
}

/**
 * What of the messages before the first user message must be kept besides `system_prompt_<side>`:
 * nothing when they are exactly one system message with that text, else the messages themselves.
 */
export function headToKeep(split: SplitConversation, systemPrompt: string | null): unknown[] | undefined {
  const { head } = split;
  if (head.length === 0 && systemPrompt === null) return undefined;
  if (head.length === 1 && head[0]!.content === systemPrompt && Object.keys(head[0]!.extra).length === 0) return undefined;
  return head.map((message) => ({ role: message.role, content: message.content, ...message.extra }));
}
