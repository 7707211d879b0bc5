import type * as GptTokenizer from 'gpt-tokenizer';

/**
 * Counts output tokens locally when the provider reports none. The o200k encoding is a fair,
 * vendor-neutral estimate; the stored `output_tokens_source` says it was counted here.
 */
let encoder: Promise<typeof GptTokenizer> | undefined;

export async function countTokensLocally(text: string): Promise<number> {
  if (text.length === 0) return 0;
  encoder ??= import('gpt-tokenizer');
  return (await encoder).countTokens(text);
}

/** The local counter itself, loaded once, for callers that count many texts synchronously. */
export async function loadTokenCounter(): Promise<(text: string) => number> {
  encoder ??= import('gpt-tokenizer');
  const { countTokens } = await encoder;
  return (text) => (text.length === 0 ? 0 : countTokens(text));
}
