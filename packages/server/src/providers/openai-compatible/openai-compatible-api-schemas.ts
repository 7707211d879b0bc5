import { z } from 'zod';
import { contentPartsSchema } from './content-parts';

/** The fields of a streamed chat-completion chunk the arena reads; everything else is ignored. */
export const chatCompletionChunkSchema = z.object({
  choices: z
    .array(
      z.object({
        delta: z
          .object({
            // A string, or Mistral's typed parts (thinking, then text).
            content: z.union([z.string(), contentPartsSchema]).nullish(),
            // vLLM, DeepSeek and llama.cpp say `reasoning_content`; OpenRouter says `reasoning`.
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z
    .object({
      prompt_tokens: z.number().nullish(),
      completion_tokens: z.number().nullish(),
      completion_tokens_details: z.object({ reasoning_tokens: z.number().nullish() }).nullish(),
    })
    .nullish(),
  model: z.string().nullish(),
  id: z.string().nullish(),
  /** Some routers report a failure inside an already-started stream. */
  error: z.object({ message: z.string().nullish(), code: z.union([z.string(), z.number()]).nullish() }).nullish(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

const isNullishString = (value: unknown) => value == null || typeof value === 'string';
const isNullishNumber = (value: unknown) => value == null || typeof value === 'number';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * True when `json` is a chunk of the common shape that {@link chatCompletionChunkSchema} accepts as it
 * is: every field the arena reads absent, null, or of its plain type (text content as a string). zod
 * on each chunk cost a few µs per token on the arena's hottest path; anything else (typed content
 * parts, a field of another type) goes through the schema, so accepted and rejected chunks, and the
 * errors, stay the schema's.
 */
export function isPlainChunk(json: unknown): json is ChatCompletionChunk {
  if (!isRecord(json)) return false;
  const { choices, usage, error } = json;
  if (!isNullishString(json.model) || !isNullishString(json.id)) return false;
  if (choices != null) {
    if (!Array.isArray(choices)) return false;
    for (const choice of choices as unknown[]) if (!isPlainChoice(choice)) return false;
  }
  if (usage != null) {
    if (!isRecord(usage) || !isNullishNumber(usage.prompt_tokens) || !isNullishNumber(usage.completion_tokens)) return false;
    const details = usage.completion_tokens_details;
    if (details != null && (!isRecord(details) || !isNullishNumber(details.reasoning_tokens))) return false;
  }
  return (
    error == null || (isRecord(error) && isNullishString(error.message) && (isNullishString(error.code) || typeof error.code === 'number'))
  );
}

function isPlainChoice(choice: unknown): boolean {
  if (!isRecord(choice) || !isNullishString(choice.finish_reason)) return false;
  const delta = choice.delta;
  if (delta == null) return true;
  return isRecord(delta) && isNullishString(delta.content) && isNullishString(delta.reasoning_content) && isNullishString(delta.reasoning);
}
