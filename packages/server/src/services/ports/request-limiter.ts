/**
 * Rate limits of the public API (docs/operations.md#rate-limits): how many prompts (new duels and
 * follow-ups, each two paid model calls), votes, reports and reactions one visitor and one client
 * address may send in a window, how many characters they may send to models the catalogue marks
 * `expensive`, and how many reads, proof-of-work challenges and files of the web app one address
 * may ask for. Both keys count: a script without cookies is a new visitor each time, and still one
 * address; a school behind one address is many visitors.
 */

import { AppError } from '../app-error';

import type { RateLimitedAction } from '../../domain/arena/rate-limit-policy';
export {
  RATE_LIMITED_ACTIONS,
  type RateLimitPolicy,
  type RateLimitRule,
  type RateLimitedAction,
} from '../../domain/arena/rate-limit-policy';

/** A refusal says when the request may succeed, and whether the client was already refused more often than its limit allows in this window. */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterMs: number; flooding: boolean };

/** Who sends a request, as the limits count it. */
export interface Requester {
  visitorId: string;
  address: string;
}

/** Counts requests (or characters) of an action for a visitor and an address, and says whether they may go on. */
export interface RequestLimiter {
  /** Counts `points` (1 by default) against both keys; refused as soon as either is spent. */
  consume(action: RateLimitedAction, requester: Requester, points?: number): Promise<RateLimitDecision>;
  /** What is left under both keys without counting anything: Infinity when the action has no limit. */
  remaining(action: RateLimitedAction, requester: Requester): Promise<{ points: number; resetMs: number }>;
  close(): Promise<void>;
}

/** 429 `rate_limited`, with `Retry-After` in whole seconds. */
export function rateLimitedError(what: string, retryAfterMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('rate_limited', `${what}: try again in ${seconds} s`, { retryAfterS: seconds });
}
