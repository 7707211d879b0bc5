import {
  createDuelRequestSchema,
  duelIdParamSchema,
  followUpRequestSchema,
  reactionRequestSchema,
  reportRequestSchema,
  streamQuerySchema,
  turnVerdictParamSchema,
  turnVerdictRequestSchema,
  voteRequestSchema,
} from '@agora/contract';
import { Hono, type Context } from 'hono';
import { AppError } from '../../services/app-error';
import type { ArenaMetrics } from '../../services/ports/arena-metrics';
import type { DuelService } from '../../services/duels/duel.service';
import type { AppEnv } from '../app-env';
import { sendFrames } from '../sse';
import { validate } from '../validate';
import type { TrustedProxies } from '../client-address';
import { clientAddress, rateLimited } from '../middleware/rate-limit';
import type { RateLimitedAction, RequestLimiter, Requester } from '../../services/ports/request-limiter';

export function duelRoutes(
  duels: DuelService,
  metrics: ArenaMetrics,
  settings: { maxPromptChars: number; cohortHosts: ReadonlyMap<string, string> },
  limits: { limiter: RequestLimiter; trustedProxies: TrustedProxies },
): Hono<AppEnv> {
  const { maxPromptChars, cohortHosts } = settings;
  const limited = (action: RateLimitedAction) => rateLimited(limits.limiter, action, limits.trustedProxies);
  const requester = (c: Context<AppEnv>): Requester => ({
    visitorId: c.get('visitorId'),
    address: clientAddress(c, limits.trustedProxies),
  });
  const routes = new Hono<AppEnv>();
  const id = validate('param', duelIdParamSchema);

  routes.post('/', limited('prompts'), validate('json', createDuelRequestSchema(maxPromptChars)), async (c) => {
    // The host the visitor came through names the operator's cohort (a school's own address, say).
    const cohort = cohortHosts.get((c.req.header('host') ?? '').toLowerCase()) ?? null;
    const created = await duels.createDuel(c.req.valid('json'), requester(c), cohort);
    return c.json(created, 201);
  });

  routes.get('/:id', limited('reads'), id, async (c) => c.json(await duels.transcript(c.req.valid('param').id, c.get('visitorId'))));

  routes.get('/:id/stream', limited('reads'), id, validate('query', streamQuerySchema), async (c) => {
    const lastEventId = parseLastEventId(c.req.header('last-event-id'));
    const { id: duelId } = c.req.valid('param');
    const { turn } = c.req.valid('query');
    // Resolved before any byte is sent, so that an unknown duel or turn is still a 404.
    const stream = await duels.openTurnStream(duelId, turn, c.get('visitorId'));
    metrics.streamOpened();
    return sendFrames(c, stream, lastEventId, () => metrics.streamClosed());
  });

  routes.post('/:id/messages', limited('prompts'), id, validate('json', followUpRequestSchema(maxPromptChars)), async (c) =>
    c.json(await duels.followUp(c.req.valid('param').id, c.req.valid('json').prompt, requester(c)), 201),
  );

  routes.post('/:id/reactions', limited('reactions'), id, validate('json', reactionRequestSchema), async (c) =>
    c.json({ reaction: await duels.react(c.req.valid('param').id, c.req.valid('json'), c.get('visitorId')) }),
  );

  // A PUT: giving the same verdict twice leaves the same state; another verdict replaces it.
  routes.put(
    '/:id/turns/:turn/verdict',
    limited('votes'),
    validate('param', turnVerdictParamSchema),
    validate('json', turnVerdictRequestSchema),
    async (c) => {
      const { id: duelId, turn } = c.req.valid('param');
      return c.json({ verdict: await duels.giveTurnVerdict({ duelId, turn }, c.req.valid('json').verdict, requester(c)) });
    },
  );

  routes.post('/:id/vote', limited('votes'), id, validate('json', voteRequestSchema), async (c) =>
    c.json(await duels.vote(c.req.valid('param').id, c.req.valid('json'), c.get('visitorId'), clientAddress(c, limits.trustedProxies))),
  );

  routes.post('/:id/report', limited('reports'), id, validate('json', reportRequestSchema), async (c) => {
    await duels.report(c.req.valid('param').id, c.req.valid('json'), c.get('visitorId'));
    return c.json({ status: 'received' }, 202);
  });

  return routes;
}

function parseLastEventId(header: string | undefined): number {
  if (header === undefined || header === '') return 0;
  if (!/^\d{1,9}$/.test(header)) throw new AppError('invalid_request', 'Last-Event-ID must be a frame id from this stream');
  return Number(header);
}
