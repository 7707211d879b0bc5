/**
 * What went wrong, as the visitor needs to know it: each cause has its own message and its own
 * action on the arena page. The API's error codes (docs/api.md#errors) and the turn stream's
 * `turn-error` events are mapped here, once.
 */
export type FailureCause =
  /** A model did not answer properly: the turn is withheld for both sides. */
  | 'model'
  /** The network or the server did not answer: the same request can be sent again. */
  | 'network'
  /** The operator has not configured two models. */
  | 'no_models'
  /** A link named models this arena does not have (or cannot draw now). */
  | 'unknown_models'
  | 'prompt_too_long'
  | 'turn_limit'
  | 'rate_limited'
  /** The duel cannot be opened here (another browser's, or forgotten). */
  | 'duel_gone'
  | 'other';

export interface Failure {
  cause: FailureCause;
  code: string;
  message: string;
  /** Seconds before the same request may succeed (`rate_limited`). */
  retryAfterS?: number;
}

/** Where the request failed: the turn stream's own error, or an answer of the API (`status` 0: no answer at all). */
export function causeOfApiError(status: number, code: string): FailureCause {
  switch (code) {
    case 'no_models_available':
      return 'no_models';
    case 'unknown_models':
    case 'model_unavailable':
      return 'unknown_models';
    case 'payload_too_large':
      return 'prompt_too_long';
    case 'turn_limit_reached':
      return 'turn_limit';
    case 'rate_limited':
      return 'rate_limited';
    case 'duel_not_found':
      return 'duel_gone';
    case 'duel_failed':
      return 'model';
    case 'network':
    case 'stream_lost':
    case 'store_unavailable':
      return 'network';
  }
  // No answer, or a proxy's page instead of ours (502, 503, 504): the server may be back in a moment.
  if (status === 0 || (status >= 502 && status <= 504 && code.startsWith('http_'))) return 'network';
  return 'other';
}

/** Whether sending the same request again may work. */
export function isRetryable(cause: FailureCause): boolean {
  return cause === 'model' || cause === 'network' || cause === 'other';
}
