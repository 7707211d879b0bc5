import { surveyQuerySchema, surveyRequestSchema } from '@agora/contract';
import { Hono } from 'hono';
import type { PopulationBoardService } from '../../services/population-board.service';
import type { SurveyService } from '../../services/survey.service';
import type { AppEnv } from '../app-env';
import { limitedBy, type RouteLimits } from '../middleware/rate-limit';
import { validate } from '../validate';

/** `/api/v1/survey`: the population survey of the visitor cookie (docs/api.md#population-survey). */
export function surveyRoutes(survey: SurveyService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  const limited = limitedBy(limits);
  routes.get('/', limited('reads'), validate('query', surveyQuerySchema), async (c) => {
    // A visitor's answers: no shared cache may keep them.
    c.header('cache-control', 'no-store');
    return c.json(await survey.get(c.get('visitorId'), c.req.valid('query').locale));
  });
  // A PUT: the same answers twice leave the same state. Counted as votes are: a script answering
  // from fresh cookies is bounded per address as a script voting would be.
  routes.put('/', limited('votes'), validate('query', surveyQuerySchema), validate('json', surveyRequestSchema), async (c) => {
    c.header('cache-control', 'no-store');
    return c.json(await survey.put(c.get('visitorId'), c.req.valid('json'), c.req.valid('query').locale));
  });
  return routes;
}

/** `/api/v1/leaderboard/population`: the board weighted to the population (docs/ranking.md#population-board). */
export function populationBoardRoutes(board: PopulationBoardService, limits: RouteLimits): Hono<AppEnv> {
  const routes = new Hono<AppEnv>();
  routes.get('/population', limitedBy(limits)('reads'), async (c) => c.json(await board.board()));
  return routes;
}
