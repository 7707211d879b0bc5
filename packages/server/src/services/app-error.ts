/** Every error code the API can answer with; `http/errors.ts` alone maps them to statuses. */
export type AppErrorCode =
  | 'invalid_request'
  | 'invalid_json'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'not_found'
  | 'duel_not_found'
  | 'turn_not_found'
  | 'unknown_models'
  | 'model_unavailable'
  | 'no_models_available'
  | 'already_voted'
  | 'duel_failed'
  | 'turn_in_progress'
  | 'turn_limit_reached'
  | 'publication_busy'
  | 'publication_not_configured'
  | 'build_withdrawn'
  | 'content_read_only'
  | 'unauthorized'
  | 'forbidden'
  | 'rate_limited'
  | 'proof_required'
  | 'range_not_satisfiable'
  | 'store_unavailable'
  | 'internal_error';

/** An expected failure with a stable code and a message safe to show (it never names a model of an unrevealed duel). */
export class AppError extends Error {
  override readonly name = 'AppError';
  constructor(
    readonly code: AppErrorCode,
    message: string,
    options?: { cause?: unknown; issues?: { path: (string | number)[]; message: string }[]; retryAfterS?: number },
  ) {
    super(message, { cause: options?.cause });
    this.issues = options?.issues;
    this.retryAfterS = options?.retryAfterS;
  }
  readonly issues: { path: (string | number)[]; message: string }[] | undefined;
  /** When the same request may succeed again (`rate_limited`), in whole seconds: the `Retry-After` header. */
  readonly retryAfterS: number | undefined;

  /** Unexpected failures are logged with their stack; expected ones are not. */
  get isReportable(): boolean {
    return this.code === 'internal_error' || this.code === 'store_unavailable';
  }
}
