import { activityQuerySchema, activitySchema } from '@agora/contract';
import { type Operation, errors } from '../../openapi-operation';

export const activityOperations: readonly Operation[] = [
  {
    method: 'get',
    path: '/api/v1/admin/activity',
    role: 'reviewer',
    summary:
      'The arena’s activity over the last `days` UTC days, from the store: duels, votes, reactions and reports per day, the funnel prompt → answers → vote, languages, topics, modes, failure rate per model; imported duels counted apart (console session of a reviewer or an admin, or the admin token)',
    query: activityQuerySchema,
    responses: { 200: { description: 'the figures', schema: activitySchema }, ...errors(400, 401, 403) },
  },
];
