import { isIP } from 'node:net';
import { z } from 'zod';
import type { RateLimitPolicy } from '../domain/arena/rate-limit-policy';
import { DEFAULT_CAMPAIGN_RULE } from '../domain/arena/campaign-rule';
import { DEFAULT_CLUSTER_PUSH_RULE } from '../domain/arena/cluster-push-rule';
import { FAST_READER, type IntegrityRules } from '../domain/arena/vote-integrity';
import { type ConsoleConfig, consoleEnvironmentShape, consoleOf, signInLimitsOf } from './console-config';
import { leaderboardEnvironmentShape } from './leaderboard-config';
import { ConfigError } from './config-errors';

export { ConfigError };

const booleanFlag = z.enum(['0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true');

/** A Hugging Face repository id: `owner/name`, letters, digits, `-`, `_` and `.`. */
const HUB_REPOSITORY = /^[A-Za-z0-9][A-Za-z0-9._-]*\/[A-Za-z0-9][A-Za-z0-9._-]*$/;

const environmentSchema = z.object({
  ...consoleEnvironmentShape,
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'expected sqlite:PATH or postgres://…')
    .default('sqlite:./data/agora.db'),
  AGORA_MODELS: z.string().min(1).default('./models.yaml'),
  AGORA_ADMIN_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  AGORA_METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').optional(),
  AGORA_MAX_PROMPT_CHARS: z.coerce.number().int().min(1).max(1_000_000).default(60_000),
  AGORA_MAX_TURNS: z.coerce.number().int().min(1).max(100).default(10),
  AGORA_RETRIES: z.coerce.number().int().min(0).max(5).default(1),
  AGORA_REPLAY_TTL_S: z.coerce.number().int().min(0).default(15),
  AGORA_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AGORA_DEMO: booleanFlag.default(false),
  AGORA_MAXX_CHECKS: booleanFlag.default(false),
  ...leaderboardEnvironmentShape,
  AGORA_PAIRING: z.enum(['uniform', 'catch_up', 'most_informative']).default('uniform'),
  AGORA_IMPACT_METHOD: z.enum(['0.9.1', '0.8.2', 'comparia-compat']).default('0.9.1'),
  AGORA_IMPACT_ZONE: z
    .string()
    .regex(/^[A-Z]{3}$/, 'an ISO 3166-1 alpha-3 code or WOR')
    .optional(),
  AGORA_POSTPROCESS: booleanFlag.default(true),
  AGORA_ANNOTATION_MODEL: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*$/, 'a model id of the catalogue')
    .optional(),
  AGORA_ANNOTATION_TIMEOUT_S: z.coerce.number().positive().default(120),
  AGORA_POSTPROCESS_EVERY_S: z.coerce.number().positive().default(5),
  AGORA_POSTPROCESS_IDLE_S: z.coerce.number().min(0).default(1800),
  AGORA_POSTPROCESS_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  AGORA_POSTPROCESS_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  AGORA_POSTPROCESS_THREADS: z.coerce.number().int().min(0).max(64).default(1),
  AGORA_PRIVATE_COHORTS: z
    .string()
    .regex(/^[^,\s]+(\s*,\s*[^,\s]+)*$/, 'a comma-separated list of cohort labels, e.g. school-2026,pilot')
    .optional(),
  AGORA_COOKIE_SECURE: booleanFlag.default(false),
  AGORA_INSTANCES: z.enum(['one', 'several']).default('one'),
  AGORA_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(180),
  AGORA_INTEGRITY_MIN_VOTE_S: z.coerce.number().min(0).max(3600).default(1),
  AGORA_INTEGRITY_READING_CHARS_PER_S: z.coerce.number().min(0).max(100_000).default(FAST_READER.charsPerSecond),
  AGORA_INTEGRITY_MAX_READING_S: z.coerce
    .number()
    .min(0)
    .max(3600)
    .default(FAST_READER.maxMs / 1000),
  AGORA_INTEGRITY_ONE_SIDED_VOTES: z.coerce.number().int().min(2).max(100_000).default(10),
  AGORA_INTEGRITY_BURST_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  AGORA_INTEGRITY_FAVOURITE_VOTES: z.coerce.number().int().min(2).max(100_000).default(10),
  AGORA_INTEGRITY_INFLUENCE_VOTES: z.coerce.number().int().min(0).max(1_000_000).default(30),
  AGORA_INTEGRITY_INFLUENCE_WINDOW_H: z.coerce
    .number()
    .min(0.001)
    .max(24 * 365)
    .default(24),
  AGORA_INTEGRITY_CLUSTER_PUSH_VISITORS: z.coerce.number().int().min(0).max(1_000_000).default(DEFAULT_CLUSTER_PUSH_RULE.visitors),
  AGORA_INTEGRITY_CLUSTER_PUSH_WINDOW_MIN: z.coerce.number().min(0.1).max(10_080).default(30),
  AGORA_LIMIT_PROMPTS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(60),
  AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(600),
  AGORA_LIMIT_VOTES_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(20),
  AGORA_LIMIT_VOTES_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(240),
  AGORA_LIMIT_REPORTS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(10),
  AGORA_LIMIT_REPORTS_PER_HOUR_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(60),
  AGORA_LIMIT_REACTIONS_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(60),
  AGORA_LIMIT_REACTIONS_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(600),
  AGORA_LIMIT_ERASURES_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(60),
  AGORA_LIMIT_ERASURES_PER_HOUR_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(600),
  AGORA_LIMIT_MY_DUELS_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(10),
  AGORA_LIMIT_MY_DUELS_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(120),
  AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(1200),
  AGORA_LIMIT_CHALLENGES_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(120),
  AGORA_LIMIT_FILES_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(6000),
  AGORA_LIMIT_DOWNLOADS_PER_MINUTE_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(60),
  AGORA_PAGES_DIR: z.string().min(1).optional(),
  AGORA_HUB_PUBLIC_DATASET: z.string().regex(HUB_REPOSITORY, 'a Hugging Face repository, owner/name').optional(),
  AGORA_HUB_GATED_DATASET: z.string().regex(HUB_REPOSITORY, 'a Hugging Face repository, owner/name').optional(),
  AGORA_PUBLIC: booleanFlag.default(false),
  AGORA_OPERATOR_CONTACT: z
    .string()
    .trim()
    .refine(
      (text) => z.email().safeParse(text).success || /^https?:\/\/[^\s/?#]+\.[^\s]+$/i.test(text),
      'an e-mail address (privacy@example.org) or an http(s):// address of a contact page',
    )
    .optional(),
  AGORA_VOTE_GOAL: z.coerce.number().int().positive().optional(),
  AGORA_SURVEY: z.string().min(1).optional(),
  AGORA_PROOF_OF_WORK: z.coerce.number().int().min(0).max(10_000_000).default(0),
  AGORA_PROOF_OF_WORK_SECRET: z.string().min(16, 'at least 16 characters').optional(),
  AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000_000).default(30_000),
  AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000_000).default(300_000),
  AGORA_COHORT_HOSTS: z
    .string()
    .regex(
      /^\s*[a-z0-9.-]+(:\d+)?\s*=\s*[^,\s=]+\s*(,\s*[a-z0-9.-]+(:\d+)?\s*=\s*[^,\s=]+\s*)*$/i,
      'a comma-separated list of host=cohort, e.g. ecole.agora.example=school-2026',
    )
    .transform(
      (text) => new Map(text.split(',').map((pair) => pair.split('=').map((part) => part.trim().toLowerCase()) as [string, string])),
    )
    .optional(),
  AGORA_REQUEST_TIMEOUT_S: z.coerce.number().positive().max(3600).default(30),
  AGORA_MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).max(100_000).default(256),
  AGORA_TRUSTED_PROXIES: z
    .string()
    .transform((text, context) => {
      const entries = text
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      for (const entry of entries) {
        const [address, bits] = entry.split('/');
        const family = isIP(address ?? '');
        const maxBits = family === 6 ? 128 : 32;
        if (family === 0 || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits))) {
          context.addIssue({ code: 'custom', message: `${JSON.stringify(entry)} is not an IP address or CIDR block (e.g. 10.0.0.0/8)` });
          return z.NEVER;
        }
      }
      return entries;
    })
    .default([]),
});

/** Everything the server reads from its environment, parsed once at boot. */
export interface Config {
  /** The operator's console (config/console-config.ts). */
  console: ConsoleConfig;
  port: number;
  host: string;
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  modelsPath: string;
  adminToken: string | undefined;
  /** Bearer token of `/metrics` (the admin token when unset); without either, `/metrics` is off. */
  metricsToken: string | undefined;
  maxPromptChars: number;
  maxTurns: number;
  /** Duels started through one of these hosts (the `Host` header, lowercase) belong to its cohort. */
  cohortHosts: ReadonlyMap<string, string>;
  /** Vote integrity rules (docs/arena.md#vote-integrity): the votes they flag stay out of the leaderboard. */
  integrity: IntegrityRules;
  /** Requests per visitor and per client address (0: no limit); shared through PostgreSQL when the store is PostgreSQL. */
  rateLimits: RateLimitPolicy;
  /** Folder of the operator's pages (`<name>.<locale>.md`); the bundled texts without it. */
  pagesDir: string | undefined;
  /** How visitors reach the operator (an e-mail address or a URL), shown on the privacy and legal pages; required with AGORA_PUBLIC=1. */
  operatorContact: string | undefined;
  /** The vote counter's goal, shown beside it. */
  voteGoal: number | undefined;
  /** The population survey's file (config/survey-config.ts); off without it. */
  surveyPath: string | undefined;
  /** The Hugging Face Hub repositories of the two exported folders, linked from the datasets page. */
  datasetHub: { public: string | undefined; gated: string | undefined };
  /** A proof of work before each new duel, of at most this many attempts (docs/operations.md#proof-of-work); off without it. */
  proofOfWork: { maxAttempts: number; secret: string | undefined } | undefined;
  /** Days after which who played a duel is forgotten (visitor and address hashes); 0 keeps them. */
  retentionDays: number;
  /** Several instances share the store (docs/decisions/0005-several-instances.md). */
  severalInstances: boolean;
  /** The visitor cookie is `Secure` (sent over HTTPS only): on for any arena served over HTTPS, even through a proxy. */
  cookieSecure: boolean;
  /** The whole request (headers and body) must arrive within this; a slow body is cut off (408). */
  requestTimeoutMs: number;
  /** Open connections one client address may hold at once (trusted proxies excepted). */
  maxConnectionsPerClient: number;
  /** Addresses or CIDR blocks of reverse proxies whose `X-Forwarded-For` names the client. */
  trustedProxies: string[];
  /** Retries of one upstream call, only before its first token and only for retryable errors. */
  upstreamRetries: number;
  /** How long a finished turn's frames stay in memory for reconnecting clients (they stay in the store anyway). */
  replayTtlMs: number;
  logLevel: string;
  demo: boolean;
  /** Check mode: opted-in visitors judge pairs of the optimised set (AGORA_MAXX_CHECKS). */
  maxxChecks: boolean;
  /** EcoLogits method for the reveal: 0.9.1 (default), 0.8.2, or compar:IA's published figures. */
  impact: { method: '0.9.1' | '0.8.2' | 'comparia-compat'; zone: string | undefined };
  /** Background refresh after K votes or T seconds; views with fewer votes than the minimum are not shown. */
  leaderboard: {
    everyVotes: number;
    everyMs: number;
    minIntervalMs: number;
    minVotes: number;
    reactions: boolean;
    /** Custom-mode votes (the visitor chose the models) count on the main board too; off: only in their own view. */
    customModeOnMainBoard: boolean;
    promptDedup?: boolean; // one vote per visitor and prompt cluster, the cap and cluster_push (docs/ranking.md#duplicate-prompts)
    snapshotEveryMs: number; // the kept votes' snapshot at most this often, 0: none (docs/operations.md#leaderboard-snapshot)
  };
  /** How pairs are drawn: uniform (default), catch-up weights, or the most informative pairs. */
  pairing: 'uniform' | 'catch_up' | 'most_informative';
  /** Language, topics and personal-data screening of finished conversations (docs/privacy.md). */
  postprocess: PostprocessConfig;
  /** Cohorts kept out of every dataset export. */
  privateCohorts: string[];
}

export interface PostprocessConfig {
  /** The background job; `agora postprocess` works either way. */
  enabled: boolean;
  /** Catalogue id of the model for topics and the model layer of the screening; unset = rules only, topics pending. */
  annotationModel: string | undefined;
  annotationTimeoutMs: number;
  everyMs: number;
  /** An unvoted duel untouched this long counts as finished. */
  idleMs: number;
  /** Worker threads of the rules layer (languages, personal-data rules); 0 runs it on the event loop. */
  threads: number;
  /** Tries per conversation before it is marked failed (never exported). */
  maxAttempts: number;
  concurrency: number;
}

/** Parses the environment; a bad value throws a ConfigError whose message names the variable. */
export function loadConfig(environment: Record<string, string | undefined>): Config {
  const values = parseEnvironment(environment);
  return {
    console: consoleOf(values),
    port: values.PORT,
    host: values.HOST,
    database: values.DATABASE_URL.startsWith('sqlite:')
      ? { kind: 'sqlite', path: values.DATABASE_URL.slice('sqlite:'.length) }
      : { kind: 'postgres', url: values.DATABASE_URL },
    modelsPath: values.AGORA_MODELS,
    adminToken: values.AGORA_ADMIN_TOKEN,
    metricsToken: values.AGORA_METRICS_TOKEN ?? values.AGORA_ADMIN_TOKEN,
    maxPromptChars: values.AGORA_MAX_PROMPT_CHARS,
    cookieSecure: values.AGORA_COOKIE_SECURE,
    severalInstances: values.AGORA_INSTANCES === 'several',
    retentionDays: values.AGORA_RETENTION_DAYS,
    integrity: integrityOf(values),
    rateLimits: rateLimitsOf(values),
    pagesDir: values.AGORA_PAGES_DIR,
    operatorContact: values.AGORA_OPERATOR_CONTACT,
    voteGoal: values.AGORA_VOTE_GOAL,
    surveyPath: values.AGORA_SURVEY,
    datasetHub: { public: values.AGORA_HUB_PUBLIC_DATASET, gated: values.AGORA_HUB_GATED_DATASET },
    proofOfWork:
      values.AGORA_PROOF_OF_WORK > 0 ? { maxAttempts: values.AGORA_PROOF_OF_WORK, secret: values.AGORA_PROOF_OF_WORK_SECRET } : undefined,
    cohortHosts: values.AGORA_COHORT_HOSTS ?? new Map(),
    requestTimeoutMs: values.AGORA_REQUEST_TIMEOUT_S * 1000,
    maxConnectionsPerClient: values.AGORA_MAX_CONNECTIONS_PER_CLIENT,
    trustedProxies: values.AGORA_TRUSTED_PROXIES,
    maxTurns: values.AGORA_MAX_TURNS,
    upstreamRetries: values.AGORA_RETRIES,
    replayTtlMs: values.AGORA_REPLAY_TTL_S * 1000,
    logLevel: values.AGORA_LOG_LEVEL,
    demo: values.AGORA_DEMO,
    maxxChecks: values.AGORA_MAXX_CHECKS,
    impact: { method: values.AGORA_IMPACT_METHOD, zone: values.AGORA_IMPACT_ZONE },
    pairing: values.AGORA_PAIRING,
    postprocess: postprocessOf(values),
    privateCohorts: values.AGORA_PRIVATE_COHORTS?.split(',').map((cohort) => cohort.trim()) ?? [],
    leaderboard: {
      everyVotes: values.AGORA_LEADERBOARD_EVERY_VOTES,
      everyMs: values.AGORA_LEADERBOARD_EVERY_S * 1000,
      minIntervalMs: values.AGORA_LEADERBOARD_MIN_INTERVAL_S * 1000,
      minVotes: values.AGORA_LEADERBOARD_MIN_VOTES,
      reactions: values.AGORA_LEADERBOARD_REACTIONS,
      customModeOnMainBoard: values.AGORA_LEADERBOARD_CUSTOM_ON_MAIN,
      promptDedup: values.AGORA_LEADERBOARD_PROMPT_DEDUP,
      snapshotEveryMs: values.AGORA_LEADERBOARD_SNAPSHOT_MINUTES * 60_000,
    },
  };
}

type EnvironmentValues = z.infer<typeof environmentSchema>;

/** The vote integrity rules (docs/arena.md#vote-integrity): the votes they flag stay out of the leaderboard. */
function integrityOf(values: EnvironmentValues): IntegrityRules {
  return {
    minVoteMs: values.AGORA_INTEGRITY_MIN_VOTE_S * 1000,
    reading:
      values.AGORA_INTEGRITY_READING_CHARS_PER_S > 0
        ? { charsPerSecond: values.AGORA_INTEGRITY_READING_CHARS_PER_S, maxMs: values.AGORA_INTEGRITY_MAX_READING_S * 1000 }
        : undefined,
    oneSidedVotes: values.AGORA_INTEGRITY_ONE_SIDED_VOTES,
    burstVotesPerMinute: values.AGORA_INTEGRITY_BURST_PER_MINUTE,
    favouriteVotes: values.AGORA_INTEGRITY_FAVOURITE_VOTES,
    influence:
      values.AGORA_INTEGRITY_INFLUENCE_VOTES > 0
        ? { votes: values.AGORA_INTEGRITY_INFLUENCE_VOTES, windowMs: values.AGORA_INTEGRITY_INFLUENCE_WINDOW_H * 3600_000 }
        : undefined,
    // Address groups are judged against the board's prediction (favours_one_model is per visitor only).
    campaign: DEFAULT_CAMPAIGN_RULE,
    clusterPush:
      values.AGORA_INTEGRITY_CLUSTER_PUSH_VISITORS > 0
        ? { visitors: values.AGORA_INTEGRITY_CLUSTER_PUSH_VISITORS, windowMs: values.AGORA_INTEGRITY_CLUSTER_PUSH_WINDOW_MIN * 60_000 }
        : undefined,
  };
}

/** The environment's values, parsed and checked together; the first problem names its variable. */
function parseEnvironment(environment: Record<string, string | undefined>): EnvironmentValues {
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    // A Hub token that fails the check may still be a real one (a line break pasted with it): never repeated.
    const got = name === 'AGORA_HUB_TOKEN' ? 'a value not shown' : JSON.stringify(present[name]);
    throw new ConfigError(`${name}: ${issue.message} (got ${got})`);
  }
  const values = parsed.data;
  if (values.AGORA_INSTANCES === 'several' && values.DATABASE_URL.startsWith('sqlite:'))
    throw new ConfigError('AGORA_INSTANCES: several instances share a PostgreSQL store (DATABASE_URL=postgres://…), not an SQLite file');
  if (values.AGORA_INSTANCES === 'several' && values.AGORA_PROOF_OF_WORK > 0 && !values.AGORA_PROOF_OF_WORK_SECRET)
    throw new ConfigError('AGORA_PROOF_OF_WORK_SECRET: several instances must sign proof-of-work challenges with one shared secret');
  // Visitors of a public arena must be able to reach whoever keeps their data (GDPR articles 13-17).
  if (values.AGORA_PUBLIC && !values.AGORA_OPERATOR_CONTACT)
    throw new ConfigError(
      'AGORA_OPERATOR_CONTACT: a public arena (AGORA_PUBLIC=1) must name how visitors reach its operator: an e-mail address or an http(s):// contact page',
    );
  return values;
}

/** The variables of the rate limits (docs/operations.md#rate-limits), for tests that set every limit at once. */
export const RATE_LIMIT_VARIABLES = Object.keys(environmentSchema.shape).filter((name) => name.startsWith('AGORA_LIMIT_'));

/** A limit counted per client address only: these routes read no visitor cookie, and a script would send none. */
const perAddressOnly = (points: number, windowS: number) => ({ perVisitor: { points: 0, windowS }, perAddress: { points, windowS } });

/** The per-visitor and per-address limits of each action. */
function rateLimitsOf(values: EnvironmentValues): Config['rateLimits'] {
  return {
    prompts: {
      perVisitor: { points: values.AGORA_LIMIT_PROMPTS_PER_HOUR, windowS: 3600 },
      perAddress: { points: values.AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS, windowS: 3600 },
    },
    votes: {
      perVisitor: { points: values.AGORA_LIMIT_VOTES_PER_MINUTE, windowS: 60 },
      perAddress: { points: values.AGORA_LIMIT_VOTES_PER_MINUTE_PER_ADDRESS, windowS: 60 },
    },
    reports: {
      perVisitor: { points: values.AGORA_LIMIT_REPORTS_PER_HOUR, windowS: 3600 },
      perAddress: { points: values.AGORA_LIMIT_REPORTS_PER_HOUR_PER_ADDRESS, windowS: 3600 },
    },
    expensive_chars: {
      perVisitor: { points: values.AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR, windowS: 3600 },
      perAddress: { points: values.AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR_PER_ADDRESS, windowS: 3600 },
    },
    reactions: {
      perVisitor: { points: values.AGORA_LIMIT_REACTIONS_PER_MINUTE, windowS: 60 },
      perAddress: { points: values.AGORA_LIMIT_REACTIONS_PER_MINUTE_PER_ADDRESS, windowS: 60 },
    },
    erasures: {
      perVisitor: { points: values.AGORA_LIMIT_ERASURES_PER_HOUR, windowS: 3600 },
      perAddress: { points: values.AGORA_LIMIT_ERASURES_PER_HOUR_PER_ADDRESS, windowS: 3600 },
    },
    // A visitor's whole history in one answer (up to megabytes): far fewer than other reads.
    my_duels: {
      perVisitor: { points: values.AGORA_LIMIT_MY_DUELS_PER_MINUTE, windowS: 60 },
      perAddress: { points: values.AGORA_LIMIT_MY_DUELS_PER_MINUTE_PER_ADDRESS, windowS: 60 },
    },
    reads: perAddressOnly(values.AGORA_LIMIT_READS_PER_MINUTE_PER_ADDRESS, 60),
    challenges: perAddressOnly(values.AGORA_LIMIT_CHALLENGES_PER_MINUTE_PER_ADDRESS, 60),
    files: perAddressOnly(values.AGORA_LIMIT_FILES_PER_MINUTE_PER_ADDRESS, 60),
    downloads: perAddressOnly(values.AGORA_LIMIT_DOWNLOADS_PER_MINUTE_PER_ADDRESS, 60),
    ...signInLimitsOf(values),
  };
}

/** The screening and topics of finished conversations. */
function postprocessOf(values: EnvironmentValues): Config['postprocess'] {
  return {
    enabled: values.AGORA_POSTPROCESS,
    annotationModel: values.AGORA_ANNOTATION_MODEL,
    annotationTimeoutMs: values.AGORA_ANNOTATION_TIMEOUT_S * 1000,
    everyMs: values.AGORA_POSTPROCESS_EVERY_S * 1000,
    idleMs: values.AGORA_POSTPROCESS_IDLE_S * 1000,
    maxAttempts: values.AGORA_POSTPROCESS_MAX_ATTEMPTS,
    concurrency: values.AGORA_POSTPROCESS_CONCURRENCY,
    threads: values.AGORA_POSTPROCESS_THREADS,
  };
}
