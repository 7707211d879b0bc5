import { z } from 'zod';
import { typedTextSchema } from './duels';

/**
 * The operator's console (`/admin` in the web app, `/api/v1/staff/*` and `/api/v1/admin/*` on the
 * server): staff accounts with a role, their sessions, and the audit log of every console and
 * admin-API request.
 */
export const STAFF_ROLES = ['admin', 'reviewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const staffRoleSchema = z.enum(STAFF_ROLES);

/** The header a console page sends with every state change: the session's CSRF token. */
export const CSRF_HEADER = 'x-agora-csrf';

const emailSchema = typedTextSchema.pipe(z.string().trim().toLowerCase().min(3).max(254).email());
/** Long enough to resist guessing when rate-limited, short enough to hash quickly (scrypt reads it all). */
const passwordSchema = z.string().min(12).max(200);

export const signInRequestSchema = z.strictObject({ email: emailSchema, password: passwordSchema });
export type SignInRequest = z.infer<typeof signInRequestSchema>;

/** The one-time link's token and the password the new staff member chooses. */
export const activateRequestSchema = z.strictObject({
  token: z.string().min(20).max(200),
  password: passwordSchema,
});
export type ActivateRequest = z.infer<typeof activateRequestSchema>;

export const staffInviteRequestSchema = z.strictObject({ email: emailSchema, role: staffRoleSchema });
export type StaffInviteRequest = z.infer<typeof staffInviteRequestSchema>;

/** Who is signed in, and the token every state change must carry in {@link CSRF_HEADER}. */
export const staffSessionSchema = z.object({
  email: z.string(),
  role: staffRoleSchema,
  csrf_token: z.string(),
  expires_at: z.string(),
});
export type StaffSession = z.infer<typeof staffSessionSchema>;

export const staffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  created_at: z.string(),
  /** Null until the one-time link was used. */
  activated_at: z.string().nullable(),
  disabled_at: z.string().nullable(),
  active_sessions: z.number().int(),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;
export const staffListSchema = z.object({ staff: z.array(staffMemberSchema) });
export type StaffList = z.infer<typeof staffListSchema>;

export const staffInvitedSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: staffRoleSchema,
  /** The one-time sign-in link (shown once). */
  link: z.string(),
  expires_at: z.string(),
});
export type StaffInvited = z.infer<typeof staffInvitedSchema>;

export const auditQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  /** The `next_cursor` of the previous page. */
  cursor: z.string().min(1).max(200).optional(),
  actor: typedTextSchema.pipe(z.string().min(1).max(254)).optional(),
  /** Only writes (POST, PUT, PATCH, DELETE). */
  writes: z.enum(['true', 'false']).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** `staff` (a signed-in person) or `token` (AGORA_ADMIN_TOKEN, a script). */
  actor_kind: z.enum(['staff', 'token']),
  /** The staff member's e-mail, or `admin-token`. */
  actor: z.string(),
  method: z.string(),
  /** The route's pattern (`/api/v1/admin/review/:id`). */
  route: z.string(),
  /** The path's parameters and the query (which rows were asked for). */
  target: z.string().nullable(),
  /** How many rows the answer carried or the action changed, when the route says. */
  rows: z.number().int().nullable(),
  status: z.number().int(),
  /** The hashed address the request came from (docs/privacy.md: never the address itself). */
  address_hash: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditPageSchema = z.object({ entries: z.array(auditEntrySchema), next_cursor: z.string().nullable() });
export type AuditPage = z.infer<typeof auditPageSchema>;
