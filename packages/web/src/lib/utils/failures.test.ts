import { describe, expect, it } from 'vitest';
import { causeOfApiError, isRetryable } from './failures';

describe('failure causes', () => {
  it.each([
    [503, 'no_models_available', 'no_models'],
    [400, 'unknown_models', 'unknown_models'],
    [400, 'model_unavailable', 'unknown_models'],
    [413, 'payload_too_large', 'prompt_too_long'],
    [409, 'turn_limit_reached', 'turn_limit'],
    [429, 'rate_limited', 'rate_limited'],
    [404, 'duel_not_found', 'duel_gone'],
    [409, 'duel_failed', 'model'],
    [0, 'network', 'network'],
    [0, 'stream_lost', 'network'],
    [503, 'store_unavailable', 'network'],
    [502, 'http_502', 'network'],
    [504, 'http_504', 'network'],
    [500, 'internal_error', 'other'],
    [400, 'invalid_request', 'other'],
    [403, 'proof_required', 'other'],
  ] as const)('HTTP %i %s → %s', (status, code, cause) => {
    expect(causeOfApiError(status, code)).toBe(cause);
  });

  it('only causes that the same request may get past are retried', () => {
    expect(isRetryable('model')).toBe(true);
    expect(isRetryable('network')).toBe(true);
    for (const cause of ['no_models', 'unknown_models', 'prompt_too_long', 'turn_limit', 'rate_limited', 'duel_gone'] as const)
      expect(isRetryable(cause)).toBe(false);
  });
});
