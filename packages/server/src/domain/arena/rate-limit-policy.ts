/**
 * What the rate limits count (docs/operations.md#rate-limits): prompts, votes, reports and
 * characters sent to expensive models; reactions; erasures of a visitor's own duels and reads of them (My duels); reads of the API (transcripts, streams, the
 * leaderboard, models, pages…); proof-of-work challenges; the web app's files; and downloads of the published datasets.
 */
export const RATE_LIMITED_ACTIONS = [
  'prompts',
  'votes',
  'reports',
  'expensive_chars',
  'reactions',
  'erasures',
  'my_duels',
  'reads',
  'challenges',
  'files',
  'downloads',
  // Console sign-ins and one-time links per address; failed sign-ins per account and address, and per account.
  'sign_ins',
  'sign_in_failures',
  'sign_in_account_failures',
] as const;
export type RateLimitedAction = (typeof RATE_LIMITED_ACTIONS)[number];

/**
 * Counted in each instance's memory even when instances share a PostgreSQL store: what these
 * limits guard is the instance's own event loop (a read costs CPU, not a model call or a row), and
 * a shared counter would make every read a database write, the very load the limit is there to stop.
 */
export const PER_INSTANCE_ACTIONS: ReadonlySet<RateLimitedAction> = new Set(['reads', 'my_duels', 'challenges', 'files', 'downloads']);

/** `points` per `windowS` seconds; 0 points: no limit. */
export interface RateLimitRule {
  points: number;
  windowS: number;
}

/** The limits of each action, per visitor and per client address: both keys count. */
export type RateLimitPolicy = Record<RateLimitedAction, { perVisitor: RateLimitRule; perAddress: RateLimitRule }>;
