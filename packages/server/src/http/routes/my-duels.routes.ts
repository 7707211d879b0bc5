import { duelIdParamSchema } from '@agora/contract';
import { Hono, type MiddlewareHandler } from 'hono';
import { AppError } from '../../services/app-error';
import type { MyDuelsService } from '../../services/my-duels.service';
import type { AppEnv } from '../app-env';
import { type RouteLimits, limitedBy } from '../middleware/rate-limit';
import { validate } from '../validate';

/**
 * "My duels" under `/api/v1/duels` (the visitor cookie's own collection): list, download, erase one
 * or all. Mounted before the duel routes, so that `export` is never read as a duel id.
 */
export function myDuelRoutes(myDuels: MyDuelsService, limits: RouteLimits): Hono<AppEnv> {
  const limited = limitedBy(limits);
  const routes = new Hono<AppEnv>();
  /**
   * A cookie minted by this very request owns nothing: it is answered after the general reads' limit
   * but before this collection's own, so that cookie-less requests cannot spend an address's budget
   * (600 erasures an hour: a script on a school's network would otherwise lock its visitors out of
   * erasing for an hour).
   */
  const ownsNothing =
    (answer: () => Response | Promise<Response>): MiddlewareHandler<AppEnv> =>
    async (c, next) =>
      c.get('newVisitorCookie') ? answer() : next();

  routes.get(
    '/',
    limited('reads'),
    ownsNothing(() => Response.json({ duels: [] }, { headers: { 'cache-control': 'no-store' } })),
    limited('my_duels'),
    async (c) => {
      // Personal data: no cache, in the browser or on the way, may keep a copy.
      c.header('cache-control', 'no-store');
      return c.json(await myDuels.list(c.get('visitorId')));
    },
  );

  routes.get('/export', limited('my_duels'), async (c) => {
    const body = await myDuels.export(c.get('visitorId'));
    c.header('cache-control', 'no-store');
    c.header('content-disposition', `attachment; filename="agora-my-duels-${body.exported_at.slice(0, 10)}.json"`);
    return c.body(JSON.stringify(body, null, 2), 200, { 'content-type': 'application/json; charset=utf-8' });
  });

  routes.delete(
    '/',
    limited('reads'),
    ownsNothing(() => Response.json({ erased: 0 })),
    limited('erasures'),
    async (c) => c.json(await myDuels.eraseAll(c.get('visitorId'))),
  );

  const notYours = () => {
    throw new AppError('duel_not_found', 'no duel with this id');
  };
  routes.delete('/:id', limited('reads'), validate('param', duelIdParamSchema), ownsNothing(notYours), limited('erasures'), async (c) =>
    c.json(await myDuels.eraseOne(c.get('visitorId'), c.req.valid('param').id)),
  );

  return routes;
}
