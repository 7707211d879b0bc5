import { createHash } from 'node:crypto';
import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { rateLimitAddress } from '../domain/arena/address-group';
import { PER_INSTANCE_ACTIONS } from '../domain/arena/rate-limit-policy';
import type {
  RateLimitDecision,
  RateLimitPolicy,
  RateLimitRule,
  RateLimitedAction,
  RequestLimiter,
} from '../services/ports/request-limiter';
import { type Counter, WindowCounter } from './window-counter';

/**
 * The limits: counters in this process's memory (one instance; window-counter.ts), or in PostgreSQL
 * with rate-limiter-flexible (several instances share them; the library keeps its own table,
 * `agora_rate_limits`), except for the actions counted per instance (PER_INSTANCE_ACTIONS: reads,
 * challenges, files). Shared counters fall back to this process's memory while the database does
 * not answer, and a client far over its limit is refused from memory without a database write.
 */
/** A visitor id is a credential and an address is personal data: counters are kept under their hash. */
const hashed = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);

/** One counter of a rule (none for a rule of 0 points: no limit), in memory or in PostgreSQL with memory as insurance. */
function counterOf(
  pool: pg.Pool | undefined,
  action: RateLimitedAction,
  scope: 'visitor' | 'address',
  rule: RateLimitRule,
): Counter | undefined {
  if (rule.points === 0) return undefined;
  if (!pool || PER_INSTANCE_ACTIONS.has(action)) return new WindowCounter(rule.points, rule.windowS * 1000);
  const options = { keyPrefix: `${action}:${scope}`, points: rule.points, duration: rule.windowS };
  return new RateLimiterPostgres({
    ...options,
    storeClient: pool,
    storeType: 'pool',
    // Created by a migration of the store, so that instances starting together do not race to create it.
    tableName: 'agora_rate_limits',
    tableCreated: true,
    clearExpiredByTimeout: true,
    insuranceLimiter: new RateLimiterMemory(options),
    inMemoryBlockOnConsumed: rule.points * 2,
    inMemoryBlockDuration: rule.windowS,
  });
}

export function createRequestLimiter(policy: RateLimitPolicy, shared: { postgresUrl: string } | undefined): RequestLimiter {
  const pool = shared ? new pg.Pool({ connectionString: shared.postgresUrl, max: 4 }) : undefined;
  const limiters = new Map(
    Object.entries(policy).map(([action, rules]) => [
      action,
      [
        counterOf(pool, action as RateLimitedAction, 'visitor', rules.perVisitor),
        counterOf(pool, action as RateLimitedAction, 'address', rules.perAddress),
      ],
    ]),
  );
  return {
    async consume(action, { visitorId, address }, points = 1): Promise<RateLimitDecision> {
      const [byVisitor, byAddress] = limiters.get(action) ?? [];
      // The address first: a script without cookies is a new visitor on every request, and its
      // requests past the address's limit must not each leave a visitor counter behind.
      for (const [counter, key] of [
        [byAddress, rateLimitAddress(address)],
        [byVisitor, visitorId],
      ] as const) {
        // A route without the visitor cookie has no visitor: it is counted by its address only.
        if (!counter || key === '') continue;
        try {
          await counter.consume(hashed(key), points);
        } catch (refusal) {
          // A refusal is a RateLimiterRes; anything else is the store failing with no insurance left: let it through.
          if (refusal instanceof RateLimiterRes)
            return {
              allowed: false,
              retryAfterMs: Math.max(1, refusal.msBeforeNext),
              // Past twice the limit. A key blocked in memory (PostgreSQL, from twice the limit on) is refused with 0 consumed.
              flooding: refusal.consumedPoints > 2 * counter.points || refusal.consumedPoints === 0,
            };
        }
      }
      return { allowed: true };
    },
    async remaining(action, { visitorId, address }) {
      const [byVisitor, byAddress] = limiters.get(action) ?? [];
      let left = { points: Number.POSITIVE_INFINITY, resetMs: 0 };
      for (const [counter, key] of [
        [byAddress, rateLimitAddress(address)],
        [byVisitor, visitorId],
      ] as const) {
        if (!counter || key === '') continue;
        // No counter yet (null) is a whole budget; a store that does not answer counts as one too, like consume.
        const state = await counter.get(hashed(key)).catch(() => null);
        const points = state ? Math.max(0, state.remainingPoints) : counter.points;
        if (points < left.points) left = { points, resetMs: state?.msBeforeNext ?? 0 };
      }
      return left;
    },
    async close() {
      for (const counter of [...limiters.values()].flat()) if (counter instanceof WindowCounter) counter.stop();
      await pool?.end();
    },
  };
}
