import { t } from '$lib/i18n/index.svelte';
import { ApiError } from './client';

/**
 * What a read refused by the server's rate limit (429 `rate_limited`) says to the visitor, in
 * their language, with the wait the server gave (`Retry-After`); undefined for any other failure.
 */
export function rateLimitedMessage(error: unknown): string | undefined {
  if (!(error instanceof ApiError && error.code === 'rate_limited')) return undefined;
  return t('common.rate_limited', { seconds: error.retryAfterS ?? 60 });
}
