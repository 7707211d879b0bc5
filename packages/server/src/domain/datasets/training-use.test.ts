import { describe, expect, it } from 'vitest';
import { mostRestrictive, trainingUseOf } from './training-use';

describe('training use', () => {
  it.each([
    ['Apache 2.0', true, 'allowed'],
    ['apache-2.0', true, 'allowed'],
    ['MIT', true, 'allowed'],
    ['CC-BY-4.0', true, 'allowed'],
    ['Llama 3.3 Community', true, 'check_licence'],
    ['Gemma Terms of Use', true, 'check_licence'],
    ['CC-BY-NC-4.0', true, 'check_licence'],
    ['Proprietary', false, 'evaluation_only'],
    ['Apache 2.0', false, 'evaluation_only'],
  ] as const)('%s, open weights %s → %s', (license, openWeights, use) => {
    expect(trainingUseOf({ license, openWeights })).toBe(use);
  });

  it('takes the operator’s statement of a model’s terms first', () => {
    expect(trainingUseOf({ license: 'Proprietary', openWeights: false, trainingUse: 'allowed' })).toBe('allowed');
    expect(trainingUseOf({ license: 'MIT', openWeights: true, trainingUse: 'evaluation_only' })).toBe('evaluation_only');
  });

  it('gives a pair the most restrictive use of its answers', () => {
    expect(mostRestrictive(['allowed', 'allowed'])).toBe('allowed');
    expect(mostRestrictive(['allowed', 'check_licence'])).toBe('check_licence');
    expect(mostRestrictive(['check_licence', 'evaluation_only', 'allowed'])).toBe('evaluation_only');
  });
});
