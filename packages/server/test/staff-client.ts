import { CSRF_HEADER, type StaffRole } from '@agora/contract';
import type { Arena } from '../src/composition/arena';
import { jsonRequest } from './test-arena';

/** A console member's browser: the session cookie and CSRF token it got from a one-time link. */
export class StaffClient {
  constructor(
    readonly baseUrl: string,
    readonly cookie: string,
    readonly csrfToken: string,
    readonly email: string,
  ) {}

  /** A console call; state changes carry the CSRF token unless `csrf: false` (or another token) is given. */
  async request(
    method: string,
    path: string,
    body?: unknown,
    options: { csrf?: string | false; headers?: Record<string, string>; baseUrl?: string } = {},
  ): Promise<{ status: number; json: any; text: string; headers: Headers }> {
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    const headers = { ...(csrf === false || method === 'GET' ? {} : { [CSRF_HEADER]: csrf }), ...options.headers };
    const response = await fetch(`${options.baseUrl ?? this.baseUrl}${path}`, jsonRequest(method, body, this.cookie, headers));
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, json, text, headers: response.headers };
  }
}

export const TEST_PASSWORD = 'correct horse battery staple';

/** The token of a one-time link (its fragment). */
export const linkToken = (link: string): string => new URL(link).hash.replace('#token=', '');

let activations = 0;

/**
 * Invites `email` with `role` through the service (as `agora staff add` does) and uses the link through
 * the API, each time from another address when the arena trusts the loopback proxy (the per-address
 * limit of sign-ins counts activations too).
 */
export async function signedInStaff(arena: Arena, baseUrl: string, email: string, role: StaffRole): Promise<StaffClient> {
  const invited = await arena.console.staff.invite(email, role);
  activations += 1;
  const from = { 'x-forwarded-for': `10.${(activations >> 8) & 255}.${activations & 255}.1` };
  const response = await fetch(
    `${baseUrl}/api/v1/staff/activate`,
    jsonRequest('POST', { token: linkToken(invited.link), password: TEST_PASSWORD }, undefined, from),
  );
  if (response.status !== 200) throw new Error(`activation answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  const session = (await response.json()) as { csrf_token: string };
  return new StaffClient(baseUrl, cookie, session.csrf_token, email);
}
