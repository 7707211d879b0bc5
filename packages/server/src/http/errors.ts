import type { ErrorBody } from '@agora/contract';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppErrorCode } from '../services/app-error';

/** The one place where error codes become HTTP statuses. */
export const statusOfCode: Record<AppErrorCode, ContentfulStatusCode> = {
  invalid_request: 400,
  invalid_json: 400,
  unknown_models: 400,
  model_unavailable: 400,
  unauthorized: 401,
  forbidden: 403,
  proof_required: 403,
  not_found: 404,
  duel_not_found: 404,
  turn_not_found: 404,
  already_voted: 409,
  duel_failed: 409,
  turn_in_progress: 409,
  turn_limit_reached: 409,
  publication_busy: 409,
  publication_not_configured: 409,
  build_withdrawn: 409,
  content_read_only: 409,
  payload_too_large: 413,
  rate_limited: 429,
  unsupported_media_type: 415,
  range_not_satisfiable: 416,
  internal_error: 500,
  no_models_available: 503,
  store_unavailable: 503,
};

export function errorBody(code: string, message: string, issues?: ErrorBody['error']['issues']): ErrorBody {
  return { error: { code, message, ...(issues ? { issues } : {}) } };
}
