import type { TokenCounter } from '../../domain/ranking';

/**
 * The cl100k_base token counter (tiktoken's `gpt-3.5-turbo` encoding, the one FastChat counts
 * answer lengths with). Loaded on first use: the encoding tables are large. Special-token text
 * such as `<|endoftext|>` is counted as ordinary text instead of throwing.
 */
export async function loadCl100kTokenCounter(): Promise<TokenCounter> {
  const { countTokens } = await import('gpt-tokenizer/encoding/cl100k_base');
  const options = { disallowedSpecial: new Set<string>() };
  return (text) => countTokens(text, options);
}
