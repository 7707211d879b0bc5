/**
 * Rate limits of the public API (docs/operations.md#rate-limits): how many prompts (new duels and
 * follow-ups, each two paid model calls), votes and reports one visitor and one client address may
 * send in a window. Both keys count: a script without cookies is a new visitor each time, and
 * still one address; a school behind one address is many visitors.
 */

export const RATE_LIMITED_ACTIONS = ['prompts', 'votes', 'reports'] as const;
export type RateLimitedAction = (typeof RATE_LIMITED_ACTIONS)[number];

/** `points` per `windowS` seconds; 0 points: no limit. */
export interface RateLimitRule {
  points: number;
  windowS: number;
}

export type RateLimitPolicy = Record<RateLimitedAction, { perVisitor: RateLimitRule; perAddress: RateLimitRule }>;

export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

/** Counts one request of an action for a visitor and an address, and says whether it may go on. */
export interface RequestLimiter {
  consume(action: RateLimitedAction, visitorId: string, address: string): Promise<RateLimitDecision>;
  close(): Promise<void>;
}
