import { z } from 'zod';

/**
 * The operator's console (docs/operations.md#the-console): its sessions, its sign-in limits, the
 * audit log's retention and the public address its one-time links point to. Each console area adds
 * its own variables here, not to config.ts.
 */
export const consoleEnvironmentShape = {
  /** Where visitors reach the arena (`https://arena.example.org`): the one-time sign-in links point there. */
  AGORA_PUBLIC_URL: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#]+(:\d+)?(\/[^\s?#]*)?$/i, 'an http(s):// address, e.g. https://arena.example.org')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  AGORA_CONSOLE_SESSION_IDLE_MIN: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  AGORA_CONSOLE_SESSION_MAX_H: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(12),
  AGORA_AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(365),
  AGORA_LIMIT_SIGN_INS_PER_15_MIN: z.coerce.number().int().min(1).max(1000).default(10),
  AGORA_LIMIT_SIGN_INS_PER_15_MIN_PER_ACCOUNT: z.coerce.number().int().min(1).max(100_000).default(100),
  AGORA_LIMIT_SIGN_INS_PER_15_MIN_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(30),
  /** How often each instance reads the console's change stamp of the models (a model added on one instance is drawn on all within it). */
  AGORA_MODEL_SYNC_MS: z.coerce.number().int().min(100).max(600_000).default(2000),
  /** The Hugging Face Hub the console pushes exports to (a test points it at its fake). */
  AGORA_HUB_URL: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s/?#]+(:\d+)?$/i, 'an http(s):// origin, e.g. https://huggingface.co')
    .default('https://huggingface.co'),
  /** A write token for the Hub's dataset repositories; a token given in the console wins over it. */
  AGORA_HUB_TOKEN: z
    .string()
    .regex(/^hf_[A-Za-z0-9]{10,200}$/, 'a Hugging Face access token (hf_…)')
    .optional(),
  /** Where the console's exports are written, one folder per build. */
  AGORA_PUBLICATION_DIR: z.string().trim().min(1).default('./data/exports'),
  AGORA_PUBLICATION_SCHEDULE: z.enum(['off', 'daily', 'weekly']).default('off'),
};

type ConsoleValues = z.output<z.ZodObject<typeof consoleEnvironmentShape>>;

export interface ConsoleConfig {
  /** The arena's public address, if the operator gave one (else the server's own HOST and PORT). */
  publicUrl: string | undefined;
  /** A session unused this long ends… */
  sessionIdleMs: number;
  /** …and any session ends this long after its sign-in. */
  sessionMaxMs: number;
  auditRetentionDays: number;
  /** How often each instance polls the models' change stamp (jobs/model-catalogue-sync.plan.ts). */
  modelSyncMs: number;
  publication: PublicationConfig;
}

/** The console's publication (docs/operations.md#publication). */
export interface PublicationConfig {
  hubUrl: string;
  /** AGORA_HUB_TOKEN; never logged, never answered. */
  hubToken: string | undefined;
  outDir: string;
  /** The schedule unless the console set one. */
  schedule: 'off' | 'daily' | 'weekly';
}

export function consoleOf(values: ConsoleValues): ConsoleConfig {
  return {
    publicUrl: values.AGORA_PUBLIC_URL,
    sessionIdleMs: values.AGORA_CONSOLE_SESSION_IDLE_MIN * 60_000,
    sessionMaxMs: values.AGORA_CONSOLE_SESSION_MAX_H * 3_600_000,
    auditRetentionDays: values.AGORA_AUDIT_RETENTION_DAYS,
    modelSyncMs: values.AGORA_MODEL_SYNC_MS,
    publication: {
      hubUrl: values.AGORA_HUB_URL.replace(/\/+$/, ''),
      hubToken: values.AGORA_HUB_TOKEN,
      outDir: values.AGORA_PUBLICATION_DIR,
      schedule: values.AGORA_PUBLICATION_SCHEDULE,
    },
  };
}

/**
 * Sign-in attempts in 15-minute windows (docs/decisions/0010-staff-sign-in.md): every attempt per
 * address (`sign_ins`, first on the route, before the body is read); failed ones per account and
 * address (`sign_in_failures`) and per account from anywhere (`sign_in_account_failures`), keyed by
 * the e-mail's hash as the visitor key. Only failures count against an account: guessing from other
 * addresses meets the account's cap, but locking its owner out takes that many addresses' worth.
 */
export function signInLimitsOf(values: ConsoleValues) {
  const window = 900;
  const none = { points: 0, windowS: window };
  return {
    sign_ins: { perVisitor: none, perAddress: { points: values.AGORA_LIMIT_SIGN_INS_PER_15_MIN_PER_ADDRESS, windowS: window } },
    sign_in_failures: { perVisitor: { points: values.AGORA_LIMIT_SIGN_INS_PER_15_MIN, windowS: window }, perAddress: none },
    sign_in_account_failures: {
      perVisitor: { points: values.AGORA_LIMIT_SIGN_INS_PER_15_MIN_PER_ACCOUNT, windowS: window },
      perAddress: none,
    },
  };
}
