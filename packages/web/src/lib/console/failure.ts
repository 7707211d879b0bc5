import { ApiError } from '$lib/api/client';
import { rateLimitedMessage } from '$lib/api/rate-limited';
import { type MessageKey, t } from '$lib/i18n/index.svelte';

/**
 * A console call's failure in the member's language: too many tries, not allowed, the session
 * ended, a bad request (the server's wording names fields, so it is not shown), else `fallback`.
 */
export function consoleFailure(error: unknown, fallback: MessageKey): string {
  const limited = rateLimitedMessage(error);
  if (limited) return limited;
  if (error instanceof ApiError && error.status === 403) return t('console.error.forbidden');
  if (error instanceof ApiError && error.status === 400) return t('console.error.invalid');
  return t(fallback);
}
