import type { Logger } from 'pino';
import type { StaffRole } from '../domain/staff/roles';

/** Who calls the console or admin API: a signed-in staff member, or a script with AGORA_ADMIN_TOKEN. */
export interface StaffActor {
  kind: 'staff' | 'token';
  /** The staff member's id, or `admin-token`. */
  id: string;
  /** The staff member's e-mail, or `admin-token` (the audit log's actor). */
  name: string;
  role: StaffRole;
  /** The session's id hash (a signed-in member); its CSRF token guards every state change. */
  sessionId?: string;
}

/** Request-scoped values carried by Hono's context. */
export interface AppEnv {
  Variables: {
    requestId: string;
    visitorId: string;
    /** The `Set-Cookie` value when this request created the visitor cookie (for answers written outside Hono). */
    newVisitorCookie: string | undefined;
    /** The security headers of every answer (middleware/security.ts), for a stream that writes its own head. */
    securityHeaders: Readonly<Record<string, string>>;
    logger: Logger;
    /** Set by middleware/staff-auth.ts on `/api/v1/admin/*`. */
    staff: StaffActor | undefined;
    /** How many rows this console answer carried or this action changed, for the audit log (set by the handler when it knows). */
    auditRows: number | undefined;
  };
}
