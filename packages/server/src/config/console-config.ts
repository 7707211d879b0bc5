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
  AGORA_LIMIT_SIGN_INS_PER_15_MIN_PER_ADDRESS: z.coerce.number().int().min(1).max(100_000).default(30),
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
}

export function consoleOf(values: ConsoleValues): ConsoleConfig {
  return {
    publicUrl: values.AGORA_PUBLIC_URL,
    sessionIdleMs: values.AGORA_CONSOLE_SESSION_IDLE_MIN * 60_000,
    sessionMaxMs: values.AGORA_CONSOLE_SESSION_MAX_H * 3_600_000,
    auditRetentionDays: values.AGORA_AUDIT_RETENTION_DAYS,
  };
}

/** Sign-in attempts: per e-mail (the limiter's visitor key) and per address, in 15-minute windows. */
export function signInLimitsOf(values: ConsoleValues) {
  return {
    perVisitor: { points: values.AGORA_LIMIT_SIGN_INS_PER_15_MIN, windowS: 900 },
    perAddress: { points: values.AGORA_LIMIT_SIGN_INS_PER_15_MIN_PER_ADDRESS, windowS: 900 },
  };
}
