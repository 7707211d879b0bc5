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
    ['anthropic/claude-sonnet-4', 'anthropic/claude-4-sonnet-20250522'],
    ['anthropic/claude-sonnet-4.5', 'claude-sonnet-4-5-20250929'],
    ['openai/gpt-oss-120b:cerebras', 'openai/gpt-oss-120b'],
    ['openai/gpt-oss-120b', 'gpt-oss-120b:novita'],
  ])('%s served as %s is the same model', (expected, served) => {
    expect(servedModelDiffers(expected, served)).toBe(false);
  });

  it.each([
    ['gpt-4o', 'gpt-4o-mini-2024-07-18'],
    ['meta-llama/llama-3.3-70b-instruct', 'meta-llama/llama-3.1-8b-instruct'],
    ['mistral-large-latest', 'mistral-small-2503'],
    ['claude-opus-4-1', 'claude-haiku-4-5-20251001'],
    ['quorvex/zephyrine-ultra', 'quorvex/kestrix-nano'],
    ['gpt-4', 'gpt-4.1'],
    ['openai/gpt-5', 'gpt-5.1'],
    ['claude-opus-4', 'claude-opus-4-1-20250805'],
    ['claude-opus-4-1', 'claude-opus-4'],
    ['deepseek/deepseek-chat-v3.1', 'deepseek-chat-v3'],
    ['z-ai/glm-4.5', 'glm-4'],
    ['o1', 'o1-preview'],
    ['phi-3', 'phi-3.5'],
    ['llama-3.1-8b-instant', 'llama-3.1-8b-instant-fp8'],
    ['openai/gpt-oss-120b', 'gpt-oss-120b@int4'],
    ['qwen3-32b', 'qwen3-32b-awq'],
    ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5-20250514'],
  ])('%s served as %s is another model', (expected, served) => {
    expect(servedModelDiffers(expected, served)).toBe(true);
  });

  it('says nothing when the provider does not name what it served', () => {
    expect(servedModelDiffers('gpt-4o', undefined)).toBe(false);
    expect(servedModelDiffers('gpt-4o', '')).toBe(false);
  });
});
