import { integrityOverviewSchema, integrityQuerySchema, reviewBulkDecisionRequestSchema, reviewCountsQuerySchema } from '@agora/contract';
import { type Operation, errors } from '../../openapi-operation';

const REVIEWER = '(console session of a reviewer or an admin, or the admin token)';

/** The review queue's and vote integrity's console routes (the older review routes are in http/openapi.ts). */
export const reviewOperations: readonly Operation[] = [
  {
    method: 'get',
    path: '/api/v1/admin/review-counts',
    role: 'reviewer',
    summary: `Conversations per review queue under the filters (language, kind, age), and the kinds found in the undecided flagged ones ${REVIEWER}`,
    query: reviewCountsQuerySchema,
    responses: { 200: { description: 'counts' }, ...errors(400, 401, 403) },
  },
  {
    method: 'post',
    path: '/api/v1/admin/review-decisions',
    role: 'reviewer',
    summary: `Includes or excludes many conversations at once, in one transaction, each decision in the review log; the reviewer is who is signed in ${REVIEWER}`,
    body: reviewBulkDecisionRequestSchema,
    responses: { 200: { description: 'one audit entry per conversation' }, ...errors(400, 401, 403, 404) },
  },
  {
    method: 'get',
    path: '/api/v1/admin/votes/integrity',
    role: 'reviewer',
    summary: `Flagged votes by rule, visitor and address, the rating points they would move on the main board, and served-model discrepancies per model and provider ${REVIEWER}`,
    query: integrityQuerySchema,
    responses: { 200: { description: 'the overview', schema: integrityOverviewSchema }, ...errors(400, 401, 403) },
  },
];
