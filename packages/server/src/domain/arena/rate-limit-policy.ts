/** What the rate limits count (docs/operations.md#rate-limits): prompts, votes, reports and characters sent to expensive models. */
export const RATE_LIMITED_ACTIONS = ['prompts', 'votes', 'reports', 'expensive_chars'] as const;
export type RateLimitedAction = (typeof RATE_LIMITED_ACTIONS)[number];

/** `points` per `windowS` seconds; 0 points: no limit. */
export interface RateLimitRule {
  points: number;
  windowS: number;
}

/** The limits of each action, per visitor and per client address: both keys count. */
export type RateLimitPolicy = Record<RateLimitedAction, { perVisitor: RateLimitRule; perAddress: RateLimitRule }>;
