import {
  type ModelCallOptions,
  type ModelClient,
  type ModelStreamResult,
  ProviderCallError,
  isRetryableStatus,
  retryAfterMs,
} from '../spec';
import { type Transport, type TransportResponse, fetchTransport, nodeHttpTransport } from './http-transport';
import { chatCompletionParts } from './openai-compatible-stream';

/** How to reach one model over the OpenAI-compatible chat-completions API. */
export interface OpenAiCompatibleSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Injected in tests to replay recorded vendor streams; Node's HTTP client otherwise. */
  fetch?: typeof fetch;
}

/**
 * A direct client for `/chat/completions` streaming, the protocol of most vendors and local
 * servers. It exists beside the AI SDK adapter because this is the arena's hot path: one chunk per
 * token per side, where the AI SDK's generic pipeline costs about five times more CPU per chunk
 * (docs/decisions/0002-direct-openai-compatible-client.md).
 */
export class OpenAiCompatibleModelClient implements ModelClient {
  readonly specificationVersion = 'v1';
  readonly provider = 'openai-compatible';
  readonly modelId: string;
  private readonly url: string;
  private readonly headers: Record<string, string>;
  private readonly transport: Transport;

  constructor(settings: OpenAiCompatibleSettings) {
    this.modelId = settings.model;
    this.url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    this.headers = {
      'content-type': 'application/json',
      ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      ...settings.headers,
    };
    this.transport = settings.fetch ? fetchTransport(settings.fetch) : nodeHttpTransport;
  }

  async doStream(options: ModelCallOptions): Promise<ModelStreamResult> {
    const body = {
      model: this.modelId,
      messages: options.messages,
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: options.maxOutputTokens,
      temperature: options.temperature,
      top_p: options.topP,
      seed: options.seed,
      response_format: options.responseFormat
        ? { type: 'json_schema', json_schema: { name: options.responseFormat.name, schema: options.responseFormat.schema, strict: true } }
        : undefined,
      ...options.providerOptions?.['openai-compatible'],
    };
    let response: TransportResponse;
    try {
      response = await this.transport(this.url, {
        method: 'POST',
        headers: { ...this.headers, ...options.headers },
        body: JSON.stringify(body),
        signal: options.abortSignal,
      });
    } catch (error) {
      if (options.abortSignal?.aborted) throw options.abortSignal.reason;
      throw new ProviderCallError({
        kind: 'connection_error',
        message: `cannot reach upstream (${causeCode(error)})`,
        isRetryable: true,
        cause: error,
      });
    }
    if (response.status < 200 || response.status >= 300) {
      const responseBody = await response.text().catch(() => '');
      throw new ProviderCallError({
        kind: 'http_error',
        message: `upstream answered HTTP ${response.status}`,
        statusCode: response.status,
        responseBody: responseBody.slice(0, 2000),
        isRetryable: isRetryableStatus(response.status),
        retryAfterMs: retryAfterMs(response.headers['retry-after']),
      });
    }
    return { stream: chatCompletionParts(response.body, options.abortSignal), response: { headers: response.headers } };
  }
}

function causeCode(error: unknown): string {
  for (const candidate of [error, (error as { cause?: unknown } | null)?.cause]) {
    const code = (candidate as { code?: unknown } | null)?.code;
    if (typeof code === 'string') return code;
  }
  return 'network error';
}
