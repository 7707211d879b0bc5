import { describe, expect, it } from 'vitest';
import { servedModelDiffers } from './served-model';

describe('served model', () => {
  it.each([
    ['mistral-large-latest', 'mistral-large-2411'],
    ['gpt-4o', 'gpt-4o-2024-08-06'],
    ['claude-sonnet-4-5', 'claude-sonnet-4-5-20250929'],
    ['meta-llama/llama-3.3-70b-instruct', 'meta-llama/llama-3.3-70b-instruct'],
    ['meta-llama/llama-3.3-70b-instruct', 'llama-3.3-70b-instruct:free'],
    ['Qwen/Qwen2.5-72B-Instruct', 'qwen/qwen2.5-72b-instruct'],
    ['deepseek/deepseek-r1-0528', 'deepseek-r1-0528'],
    ['mistral-small-2503', 'mistral-small'],
    ['llama-3.1-8b-instant', 'llama-3.1-8b-instant-fp8'],
  ])('%s served as %s is the same model', (expected, served) => {
    expect(servedModelDiffers(expected, served)).toBe(false);
  });

  it.each([
    ['gpt-4o', 'gpt-4o-mini-2024-07-18'],
    ['meta-llama/llama-3.3-70b-instruct', 'meta-llama/llama-3.1-8b-instruct'],
    ['mistral-large-latest', 'mistral-small-2503'],
    ['claude-opus-4-1', 'claude-haiku-4-5-20251001'],
    ['quorvex/zephyrine-ultra', 'quorvex/kestrix-nano'],
  ])('%s served as %s is another model', (expected, served) => {
    expect(servedModelDiffers(expected, served)).toBe(true);
  });

  it('says nothing when the provider does not name what it served', () => {
    expect(servedModelDiffers('gpt-4o', undefined)).toBe(false);
    expect(servedModelDiffers('gpt-4o', '')).toBe(false);
  });
});
