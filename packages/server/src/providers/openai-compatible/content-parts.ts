import { z } from 'zod';

/**
 * A streamed `delta.content` that is an array of typed parts, as Mistral's reasoning models send it
 * (Magistral, and Mistral Small with reasoning): `{type: "thinking", thinking: [{type: "text", text}]}`
 * parts with the reasoning, then `{type: "text", text}` parts with the answer. Other part types
 * (references) carry no text for the visitor and are left out.
 */
const innerPartSchema = z.looseObject({ type: z.string(), text: z.string().optional() });
const contentPartSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  thinking: z.union([z.string(), z.array(innerPartSchema)]).optional(),
});
export const contentPartsSchema = z.array(contentPartSchema);
export type ContentParts = z.infer<typeof contentPartsSchema>;

/** The answer text and the reasoning text of one delta's parts, each in order. */
export function splitContentParts(parts: ContentParts): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  for (const part of parts) {
    if (part.type === 'text' && 'text' in part && typeof part.text === 'string') text += part.text;
    else if (part.type === 'thinking' && 'thinking' in part) {
      const thinking = part.thinking;
      if (typeof thinking === 'string') reasoning += thinking;
      else if (Array.isArray(thinking))
        for (const inner of thinking)
          if (inner.type === 'text' && 'text' in inner && typeof inner.text === 'string') reasoning += inner.text;
    }
  }
  return { text, reasoning };
}

/**
 * For clients that expect `content` to be a string (the AI SDK's OpenAI-compatible provider):
 * rewrites each SSE `data:` line whose delta content is an array of parts into the usual fields,
 * `reasoning_content` for the thinking and `content` for the answer. Other lines pass unchanged.
 */
export function withFlatContentParts(fetchImpl: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !type.includes('text/event-stream')) return response;
    let pending = '';
    const flatten = new TransformStream<string, string>({
      transform(chunk, controller) {
        pending += chunk;
        const end = pending.lastIndexOf('\n');
        if (end < 0) return;
        controller.enqueue(
          pending
            .slice(0, end + 1)
            .split('\n')
            .map(flattenLine)
            .join('\n'),
        );
        pending = pending.slice(end + 1);
      },
      flush(controller) {
        if (pending) controller.enqueue(flattenLine(pending));
      },
    });
    const body = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(flatten).pipeThrough(new TextEncoderStream());
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function flattenLine(line: string): string {
  if (!line.startsWith('data:') || !line.includes('"content":[')) return line;
  let chunk: { choices?: { delta?: Record<string, unknown> }[] };
  try {
    chunk = JSON.parse(line.slice(5)) as typeof chunk;
  } catch {
    return line;
  }
  for (const choice of chunk.choices ?? []) {
    const delta = choice.delta;
    const parsed = contentPartsSchema.safeParse(delta?.content);
    if (!delta || !parsed.success) continue;
    const { text, reasoning } = splitContentParts(parsed.data);
    delta.content = text;
    if (reasoning) delta.reasoning_content = `${typeof delta.reasoning_content === 'string' ? delta.reasoning_content : ''}${reasoning}`;
  }
  return `data: ${JSON.stringify(chunk)}`;
}
