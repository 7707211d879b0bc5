import {
  type CheckChoiceRequest,
  type CheckPair,
  type CreateDuelRequest,
  type LeaderboardBody,
  type HeadToHead,
  type ModelProfile,
  type DuelMode,
  type ModelList,
  type Proof,
  type PublishedDatasets,
  type ArenaStatistics,
  type Transcript,
  type MyDuels,
  type Erasure,
  type ArenaStats,
  type SitePage,
  type SitePageName,
  type SitePageList,
  type ReactionRequest,
  type ReportRequest,
  type ReceivedFrame,
  type Side,
  type VoteRequest,
  type VoteResponse,
  readStreamFrames,
} from '@agora/contract';

/** An error answer of the API: its code and message (`{"error": {"code", "message"}}`). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Seconds to wait before trying again, when the server says (429 `rate_limited`). */
    readonly retryAfterS?: number,
  ) {
    super(message);
  }
}

/** One API call: JSON in and out, an {@link ApiError} for an error answer. */
export async function request<T>(
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'same-origin',
    signal,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    const retryAfter = Number(response.headers.get('retry-after'));
    throw new ApiError(
      response.status,
      error?.code ?? `http_${response.status}`,
      error?.message ?? response.statusText,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return json as T;
}

export const api = {
  models: () => request<ModelList>('GET', '/api/v1/models'),
  modelProfile: (id: string) => request<ModelProfile>('GET', `/api/v1/models/${encodeURIComponent(id)}/profile`),
  headToHead: (a: string, b: string) => request<HeadToHead>('GET', `/api/v1/models/${encodeURIComponent(a)}/vs/${encodeURIComponent(b)}`),
  datasets: () => request<PublishedDatasets>('GET', '/api/v1/datasets'),
  statistics: () => request<ArenaStatistics>('GET', '/api/v1/statistics'),
  nextCheck: () => request<CheckPair>('GET', '/api/v1/checks/next'),
  chooseCheck: (id: string, body: CheckChoiceRequest) =>
    request<{ status: 'recorded' }>('POST', `/api/v1/checks/${encodeURIComponent(id)}`, body),
  stats: () => request<ArenaStats>('GET', '/api/v1/stats'),
  pages: () => request<SitePageList>('GET', '/api/v1/pages'),
  page: (name: SitePageName, locale: string) =>
    request<SitePage>('GET', `/api/v1/pages/${encodeURIComponent(name)}?locale=${encodeURIComponent(locale)}`),
  createDuel: (body: { prompt: string; mode: DuelMode; models?: string[]; locale?: string; proof?: Proof }) =>
    request<{ id: string; turn: number }>('POST', '/api/v1/duels', body satisfies Partial<CreateDuelRequest>),
  transcript: (id: string) => request<Transcript>('GET', `/api/v1/duels/${encodeURIComponent(id)}`),
  followUp: (id: string, prompt: string) =>
    request<{ turn: number }>('POST', `/api/v1/duels/${encodeURIComponent(id)}/messages`, { prompt }),
  react: (id: string, body: ReactionRequest) => request<unknown>('POST', `/api/v1/duels/${encodeURIComponent(id)}/reactions`, body),
  report: (id: string, body: ReportRequest) =>
    request<{ status: 'received' }>('POST', `/api/v1/duels/${encodeURIComponent(id)}/report`, body),
  myDuels: () => request<MyDuels>('GET', '/api/v1/duels'),
  eraseDuel: (id: string) => request<Erasure>('DELETE', `/api/v1/duels/${encodeURIComponent(id)}`),
  eraseAllDuels: () => request<Erasure>('DELETE', '/api/v1/duels'),
  vote: (id: string, body: VoteRequest) => request<VoteResponse>('POST', `/api/v1/duels/${encodeURIComponent(id)}/vote`, body),
  leaderboard: (query: Record<string, string>, signal?: AbortSignal) => {
    const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== ''));
    const qs = search.toString();
    return request<LeaderboardBody>('GET', `/api/v1/leaderboard${qs ? `?${qs}` : ''}`, undefined, signal);
  },
};

/** What a turn stream tells the page, side by side; the only place that knows the event names. */
export interface TurnHandlers {
  text(side: Side, text: string): void;
  reasoning(side: Side, text: string): void;
  sideEnd(side: Side, outputTokens: number | null): void;
  error(failure: { code: string; message: string; retryable: boolean }): void;
}

/**
 * Reads one turn of a duel stream to its end, every frame parsed with the shared event schema
 * (`readStreamFrames`), and resolves with the turn's final status. When the connection drops before
 * the last frame it reconnects with `Last-Event-ID` (a few times) and gets exactly the frames it missed.
 */
export async function streamTurn(id: string, turn: number, handlers: TurnHandlers, signal?: AbortSignal): Promise<'complete' | 'failed'> {
  let lastEventId: string | undefined;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(`/api/v1/duels/${encodeURIComponent(id)}/stream?turn=${turn}`, {
        headers: lastEventId ? { 'last-event-id': lastEventId } : {},
        credentials: 'same-origin',
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
      continue;
    }
    if (!response.ok || !response.body) {
      const text = await response.text().catch(() => '');
      let code = `http_${response.status}`;
      let message = response.statusText;
      try {
        const parsed = JSON.parse(text) as { error: { code: string; message: string } };
        code = parsed.error.code;
        message = parsed.error.message;
      } catch {
        // Not our JSON error body (a proxy's page, say): the status and its default code stand.
      }
      throw new ApiError(response.status, code, message);
    }
    try {
      for await (const frame of readStreamFrames(response.body)) {
        if (frame.id !== undefined) lastEventId = frame.id;
        const status = dispatch(frame, handlers);
        if (status) return status;
      }
    } catch (error) {
      if (signal?.aborted) throw error;
    }
  }
  throw new ApiError(0, 'stream_lost', 'the stream was lost');
}

function dispatch({ event }: ReceivedFrame, handlers: TurnHandlers): 'complete' | 'failed' | undefined {
  switch (event.type) {
    case 'turn-start':
      return undefined;
    case 'text-delta':
      handlers.text(event.side, event.text);
      return undefined;
    case 'reasoning-delta':
      handlers.reasoning(event.side, event.text);
      return undefined;
    case 'side-end':
      handlers.sideEnd(event.side, event.output_tokens);
      return undefined;
    case 'turn-error':
      handlers.error({ code: event.code, message: event.message, retryable: event.retryable });
      return undefined;
    case 'turn-end':
      return event.status;
  }
}

export type { LeaderboardBody as LeaderboardResponse, LeaderboardRow } from '@agora/contract';
