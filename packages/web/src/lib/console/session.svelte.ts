import { CSRF_HEADER, type StaffRole, type StaffSession } from '@agora/contract';
import { ApiError, request } from '$lib/api/client';

/**
 * The console's session in the page: who is signed in (from `GET /api/v1/staff/session`; the
 * session's token itself stays in an HttpOnly cookie) and the CSRF token every state change sends.
 * A 401 from any console call signs the page out: the layout shows the sign-in form again.
 */
class ConsoleSession {
  current = $state<StaffSession | null>(null);
  /** False until the first answer: the layout shows neither the form nor the console before it. */
  loaded = $state(false);

  async load(): Promise<void> {
    try {
      this.current = await request<StaffSession>('GET', '/api/v1/staff/session');
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 401) throw error;
      this.current = null;
    } finally {
      this.loaded = true;
    }
  }

  async signIn(email: string, password: string): Promise<void> {
    this.current = await request<StaffSession>('POST', '/api/v1/staff/sign-in', { email, password });
  }

  async activate(token: string, password: string): Promise<void> {
    this.current = await request<StaffSession>('POST', '/api/v1/staff/activate', { token, password });
  }

  async signOut(): Promise<void> {
    try {
      await request<void>('DELETE', '/api/v1/staff/session');
    } finally {
      this.current = null;
    }
  }

  /** Whether the signed-in member may open what needs `role` (an admin may do all a reviewer may). */
  may(role: StaffRole): boolean {
    return this.current !== null && (this.current.role === 'admin' || this.current.role === role);
  }
}

export const consoleSession = new ConsoleSession();

/**
 * A console API call (`/api/v1/admin/…`): state changes carry the session's CSRF token; a 401 (the
 * session ended) signs the page out.
 */
export async function consoleRequest<T>(method: string, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const csrf = consoleSession.current?.csrf_token;
  try {
    return await request<T>(method, path, body, signal, method === 'GET' || !csrf ? {} : { [CSRF_HEADER]: csrf });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) consoleSession.current = null;
    throw error;
  }
}
