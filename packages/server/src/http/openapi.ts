import {
  arenaStatsSchema,
  checkChoiceRequestSchema,
  sitePageQuerySchema,
  sitePageSchema,
  sitePageListSchema,
  checkPairSchema,
  createDuelRequestSchema,
  proofChallengeSchema,
  duelCreatedSchema,
  erasureSchema,
  myDuelsExportSchema,
  myDuelsSchema,
  errorBodySchema,
  followUpRequestSchema,
  leaderboardHistoryQuerySchema,
  leaderboardHistorySchema,
  modelProfileSchema,
  headToHeadSchema,
  leaderboardQuerySchema,
  leaderboardSchema,
  modelListSchema,
  flaggedVotesSchema,
  voteReviewRequestSchema,
  publishedDatasetsSchema,
  arenaStatisticsSchema,
  reactionRequestSchema,
  reactionResponseSchema,
  reportRequestSchema,
  auditLogQuerySchema,
  reviewDecisionRequestSchema,
  reviewQueueQuerySchema,
  streamEventSchema,
  streamQuerySchema,
  transcriptSchema,
  turnCreatedSchema,
  voteRequestSchema,
  voteResponseSchema,
  turnVerdictRequestSchema,
  turnVerdictResponseSchema,
} from '@agora/contract';
import { z } from 'zod';
import { isUnlimitedRoute } from './middleware/rate-limit';
import { flaggedVotesQuerySchema, upstreamErrorsQuerySchema } from './routes/operations.routes';
import { type Operation, type OperationResponse, errors } from './openapi-operation';
import { consoleOperations } from './routes/console/openapi';
import { surveyOperations } from './routes/survey.openapi';

/** Every route but /healthz, /metrics and the admin API may answer it (docs/operations.md#rate-limits). */
const RATE_LIMITED: OperationResponse = {
  description: 'rate_limited: past a limit of this route (docs/operations.md#rate-limits)',
  schema: errorBodySchema,
  headers: { 'Retry-After': { description: 'seconds before the same request may succeed', schema: { type: 'integer' } } },
};

const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' });

function operations(maxPromptChars: number): Operation[] {
  return [
    {
      method: 'get',
      path: '/api/v1/models',
      summary: 'Public cards of the catalogue models',
      responses: { 200: { description: 'models', schema: modelListSchema } },
    },
    {
      method: 'get',
      path: '/api/v1/openapi.json',
      summary: 'This document',
      responses: { 200: { description: 'the OpenAPI document' } },
    },
    {
      method: 'get',
      path: '/api/v1/pages',
      summary: "The site pages that have a text (the footer links these), and the operator's contact",
      responses: { 200: { description: 'pages', schema: sitePageListSchema } },
    },
    {
      method: 'get',
      path: '/api/v1/pages/{name}',
      summary: "A site page (methodology, terms, privacy, legal, accessibility) in the visitor's language when written, as Markdown",
      query: sitePageQuerySchema,
      responses: { 200: { description: 'page', schema: sitePageSchema }, ...errors(400, 404) },
    },
    {
      method: 'get',
      path: '/api/v1/stats',
      summary: 'The vote counter of the site: votes so far and the operator’s goal',
      responses: { 200: { description: 'counts', schema: arenaStatsSchema } },
    },
    {
      method: 'get',
      path: '/api/v1/datasets',
      summary: 'What this arena has published: the last export and the last optimised preference set, with their row counts',
      responses: { 200: { description: 'published datasets', schema: publishedDatasetsSchema } },
    },
    {
      method: 'get',
      path: '/api/v1/datasets/{id}/files/{path}',
      summary:
        'A data file of the public folder of the last export, as listed in GET /api/v1/datasets (files[].url): Parquet or JSONL, with Content-Length, one byte range (Range: bytes=a-b, 206) and never a gated file; 404 for any other path or export, 416 for a range beyond the file',
      responses: { 200: { description: 'the file' }, ...errors(400, 404, 416, 429) },
    },
    {
      method: 'get',
      path: '/api/v1/statistics',
      summary:
        'The arena’s public statistics: duels, votes and reactions per day, languages and topics (cells under min_cell summed into other), modes, vote choices, each model’s wins, losses, ties and both-bad votes; recomputed at most once a minute',
      responses: { 200: { description: 'statistics', schema: arenaStatisticsSchema } },
    },
    {
      method: 'get',
      path: '/api/v1/checks/next',
      summary:
        'Check mode (AGORA_MAXX_CHECKS): a pair of the published optimised set for this visitor, blind and in random order; 404 when off or when nothing is left to check',
      responses: { 200: { description: 'a pair to judge', schema: checkPairSchema }, ...errors(404, 429) },
    },
    {
      method: 'post',
      path: '/api/v1/checks/{id}',
      summary:
        'The visitor’s choice on a pair shown to them (once; a choice faster than the replies can be read is kept but does not count)',
      body: checkChoiceRequestSchema,
      responses: { 200: { description: 'recorded', schema: z.object({ status: z.literal('recorded') }) }, ...errors(400, 404, 409, 429) },
    },
    {
      method: 'post',
      path: '/api/v1/duels',
      summary: 'Start a duel: two anonymous models answer the prompt',
      body: createDuelRequestSchema(maxPromptChars),
      responses: { 201: { description: 'created', schema: duelCreatedSchema }, ...errors(400, 403, 429, 503) },
    },
    {
      method: 'get',
      path: '/api/v1/challenge',
      summary: 'A proof-of-work challenge to solve and send as `proof` with the next duel (204 when the arena asks for none)',
      responses: {
        200: { description: 'challenge', schema: proofChallengeSchema },
        204: { description: 'this arena asks for no proof of work' },
      },
    },
    {
      method: 'get',
      path: '/api/v1/duels',
      summary: "The visitor cookie's own duels, newest first: prompts, answers, reactions, vote, reports; the models once voted",
      responses: { 200: { description: 'the duels', schema: myDuelsSchema } },
    },
    {
      method: 'get',
      path: '/api/v1/duels/export',
      summary: "The visitor cookie's own duels as a JSON file to download (Content-Disposition: attachment)",
      responses: { 200: { description: 'the file', schema: myDuelsExportSchema } },
    },
    {
      method: 'delete',
      path: '/api/v1/duels',
      summary: 'Erases every duel of the visitor cookie (text, reactions, vote, reports and the visitor link), but one still streaming',
      responses: { 200: { description: 'how many were erased', schema: erasureSchema } },
    },
    {
      method: 'delete',
      path: '/api/v1/duels/{id}',
      summary: "Erases one duel of the visitor cookie; another cookie's duel is not found",
      responses: { 200: { description: 'erased', schema: erasureSchema }, ...errors(400, 404, 409) },
    },
    {
      method: 'get',
      path: '/api/v1/duels/{id}',
      summary: 'The transcript; the reveal only after the vote',
      responses: { 200: { description: 'transcript', schema: transcriptSchema }, ...errors(404) },
    },
    {
      method: 'get',
      path: '/api/v1/duels/{id}/stream',
      summary:
        'Server-sent events of a turn (the latest by default); resumable with Last-Event-ID. Each frame: `event:` is the event type, `data:` the JSON of the other fields.',
      query: streamQuerySchema,
      responses: { 200: { description: 'event stream', schema: streamEventSchema, contentType: 'text/event-stream' }, ...errors(400, 404) },
    },
    {
      method: 'post',
      path: '/api/v1/duels/{id}/messages',
      summary: 'A follow-up prompt sent to both sides',
      body: followUpRequestSchema(maxPromptChars),
      responses: { 201: { description: 'turn started', schema: turnCreatedSchema }, ...errors(400, 404, 409) },
    },
    {
      method: 'post',
      path: '/api/v1/duels/{id}/reactions',
      summary: 'Like or dislike one finished answer (null removes it)',
      body: reactionRequestSchema,
      responses: { 200: { description: 'stored', schema: reactionResponseSchema }, ...errors(400, 404, 409) },
    },
    {
      method: 'put',
      path: '/api/v1/duels/{id}/turns/{turn}/verdict',
      summary:
        "A verdict on one completed turn (a_better, b_better, both_good, both_bad), by the duel's own visitor, changeable until the vote (which stays required for the reveal); names no model; counted in the votes' rate limit",
      body: turnVerdictRequestSchema,
      responses: { 200: { description: 'stored', schema: turnVerdictResponseSchema }, ...errors(400, 404, 409, 429) },
    },
    {
      method: 'post',
      path: '/api/v1/duels/{id}/vote',
      summary: 'Vote once, then see which models answered',
      body: voteRequestSchema,
      responses: { 200: { description: 'reveal', schema: voteResponseSchema }, ...errors(400, 404, 409) },
    },
    {
      method: 'post',
      path: '/api/v1/duels/{id}/report',
      summary: 'Flag a conversation, or one answer of it (turn and side), for review',
      body: reportRequestSchema,
      responses: { 202: { description: 'received' }, ...errors(400, 404, 429) },
    },
    {
      method: 'get',
      path: '/api/v1/leaderboard',
      summary: 'The latest leaderboard of a view (refreshed in the background)',
      query: leaderboardQuerySchema,
      responses: { 200: { description: 'leaderboard', schema: leaderboardSchema }, ...errors(400) },
    },
    {
      method: 'get',
      path: '/api/v1/models/{id}/profile',
      summary: "A model's sheet: its rating in every view, its win matrix with the board's predictions, its tags and languages",
      responses: { 200: { description: 'profile', schema: modelProfileSchema }, ...errors(404) },
    },
    {
      method: 'get',
      path: '/api/v1/models/{a}/vs/{b}',
      summary: 'Two models head to head: their direct record, the predicted probability, their ratings per view',
      responses: { 200: { description: 'head to head', schema: headToHeadSchema }, ...errors(400, 404) },
    },
    {
      method: 'get',
      path: '/api/v1/leaderboard/history',
      summary: "A model's overall rating over the kept snapshots",
      query: leaderboardHistoryQuerySchema,
      responses: { 200: { description: 'history', schema: leaderboardHistorySchema }, ...errors(400) },
    },
    {
      method: 'get',
      path: '/api/v1/admin/served-models',
      role: 'reviewer',
      summary: 'Answers whose provider served another model than the catalogue names, per model (admin token)',
      query: upstreamErrorsQuerySchema,
      responses: { 200: { description: 'per-model mismatches' }, ...errors(401, 404) },
    },
    {
      method: 'get',
      path: '/api/v1/admin/upstream-errors',
      role: 'reviewer',
      summary: 'Upstream failures per model and kind (admin token)',
      query: upstreamErrorsQuerySchema,
      responses: { 200: { description: 'per-model errors' }, ...errors(401, 404) },
    },
    {
      method: 'get',
      path: '/api/v1/admin/review',
      role: 'reviewer',
      summary: 'Conversations to review: flagged by the screening or reported (pending), or already decided (admin token)',
      query: reviewQueueQuerySchema,
      responses: { 200: { description: 'one page of the queue' }, ...errors(400, 401, 404) },
    },
    {
      method: 'get',
      path: '/api/v1/admin/review/{id}',
      role: 'reviewer',
      summary: 'One conversation with its models, screening, reports, decision and audit log (admin token)',
      responses: { 200: { description: 'conversation' }, ...errors(401, 404) },
    },
    {
      method: 'put',
      path: '/api/v1/admin/review/{id}',
      role: 'reviewer',
      summary: 'Include or exclude a conversation from the open datasets; appended to the audit log (admin token)',
      body: reviewDecisionRequestSchema,
      responses: { 200: { description: 'decision and audit entry' }, ...errors(400, 401, 404) },
    },
    {
      method: 'get',
      path: '/api/v1/admin/votes/flagged',
      role: 'reviewer',
      summary:
        'Votes the integrity rules keep out of the leaderboard (too fast, one-sided, bursts, favouring one model), newest first (admin token)',
      query: flaggedVotesQuerySchema,
      responses: { 200: { description: 'flagged votes', schema: flaggedVotesSchema }, ...errors(401) },
    },
    {
      method: 'put',
      path: '/api/v1/admin/votes/{id}',
      role: 'reviewer',
      summary: 'Count a flagged vote after all, or exclude any vote; appended to the audit log (admin token)',
      body: voteReviewRequestSchema,
      responses: { 200: { description: 'decision' }, ...errors(400, 401, 404) },
    },
    {
      method: 'get',
      path: '/api/v1/admin/review-log',
      role: 'reviewer',
      summary: 'The audit log of review decisions, newest first (admin token)',
      query: auditLogQuerySchema,
      responses: { 200: { description: 'audit entries' }, ...errors(400, 401, 404) },
    },
    {
      method: 'get',
      path: '/healthz',
      summary: 'Health: 200 when the store answers',
      responses: { 200: { description: 'ok' }, 503: { description: 'store unavailable' } },
    },
    {
      method: 'get',
      path: '/metrics',
      summary: 'Prometheus metrics',
      responses: { 200: { description: 'metrics', contentType: 'text/plain' } },
    },
  ];
}

/** The OpenAPI 3 document of the HTTP API, generated from the same zod schemas the server validates with. */
export function buildOpenApiDocument(maxPromptChars: number): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of [...operations(maxPromptChars), ...surveyOperations, ...consoleOperations]) {
    const parameters = [
      ...[...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...Object.entries(operation.query?.shape ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: false,
        schema: toSchema(schema as z.ZodType, 'input'),
      })),
    ];
    const responses = isUnlimitedRoute(operation.path) ? operation.responses : { ...operation.responses, 429: RATE_LIMITED };
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method] = {
      summary: operation.summary,
      ...(operation.role ? { 'x-agora-role': operation.role } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(operation.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: toSchema(operation.body, 'input') } } } }
        : {}),
      responses: Object.fromEntries(
        Object.entries(responses).map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.headers ? { headers: response.headers } : {}),
            ...(response.schema
              ? { content: { [response.contentType ?? 'application/json']: { schema: toSchema(response.schema, 'output') } } }
              : {}),
          },
        ]),
      ),
    };
  }
  return { openapi: '3.0.3', info: { title: 'Agora API', version: '1' }, paths };
}
