import { APICallError } from '@ai-sdk/provider';
import { ProviderCallError, isRetryableStatus, retryAfterMs } from '../spec';

const connectionCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET']);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Maps what the AI SDK throws when it starts a call (HTTP status, refused connection) to our error. */
export function mapCallError(error: unknown): ProviderCallError {
  if (ProviderCallError.isInstance(error)) return error;
  if (APICallError.isInstance(error) && error.statusCode !== undefined) {
    return new ProviderCallError({
      kind: 'http_error',
      message: `upstream answered HTTP ${error.statusCode}`,
      statusCode: error.statusCode,
      responseBody: error.responseBody?.slice(0, 2000),
      isRetryable: isRetryableStatus(error.statusCode),
      retryAfterMs: retryAfterMs(error.responseHeaders?.['retry-after']),
      cause: error,
    });
  }
  if (APICallError.isInstance(error) || connectionCodes.has(causeCode(error) ?? '')) {
    return new ProviderCallError({
      kind: 'connection_error',
      message: `cannot reach upstream (${causeCode(error) ?? 'network error'})`,
      isRetryable: true,
      cause: error,
    });
  }
  return mapStreamError(error);
}

/** Maps an error met while reading an upstream stream: bad JSON or an interrupted body. */
export function mapStreamError(error: unknown): ProviderCallError {
  if (ProviderCallError.isInstance(error)) return error;
  const name = (error as { name?: unknown } | null)?.name;
  const malformed = name === 'AI_JSONParseError' || name === 'AI_TypeValidationError' || error instanceof SyntaxError;
  return new ProviderCallError({
    kind: malformed ? 'malformed_stream' : 'stream_cut',
    message: malformed ? 'upstream sent a malformed stream' : 'upstream stream was interrupted',
    isRetryable: !malformed,
    cause: error,
  });
}
