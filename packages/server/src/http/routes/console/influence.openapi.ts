import { influenceQuerySchema, influenceSchema } from '@agora/contract';
import { type Operation, errors } from '../../openapi-operation';

export const influenceOperations: readonly Operation[] = [
  {
    method: 'get',
    path: '/api/v1/admin/influence',
    role: 'reviewer',
    summary:
      'Rank influence on the main board (docs/ranking.md#rank-influence): per model its rating and 95 % half-width, the `top` visitors or address hashes (`by`) whose votes move its rating most if left out (points, votes cast, votes on it, rank before and after, alert), and how many more votes would separate neighbours whose intervals overlap; without `model`, every model, the one its top group moves most first. Computed once per leaderboard refresh (console session of a reviewer or an admin, or the admin token)',
    query: influenceQuerySchema,
    responses: { 200: { description: 'the influence report', schema: influenceSchema }, ...errors(400, 401, 403, 404) },
  },
];
