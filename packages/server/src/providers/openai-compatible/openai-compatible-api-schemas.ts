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
