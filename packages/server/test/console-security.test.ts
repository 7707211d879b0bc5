import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditCsv } from '../src/services/audit.service';
import { type Runtime, systemRuntime } from '../src/services/ports/runtime';
import { StaffClient, TEST_PASSWORD, linkToken, signedInStaff } from './staff-client';
import { DIALECTS } from './test-db';
import { type TestArena, jsonRequest, startTestArena } from './test-arena';

/*
 * The console's doors (docs/operations.md#the-console): no console route or data without a session
 * or the admin token, every route enumerated from the OpenAPI document; a reviewer refused an
 * admin's routes; CSRF refused; sign-in guesses limited per account and per address, whatever the
 * spread; sessions that end (sign-out, revocation, idleness, a disabled member); every request in
 * the audit log.
 */

const ADMIN_TOKEN = 'console-security-admin-token';
const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');

/** A clock the test moves forward (session idleness). */
class MovableClock {
  offsetMs = 0;
  readonly runtime: Runtime = { ...systemRuntime, now: () => new Date(Date.now() + this.offsetMs) };
}

interface AdminOperation {
  method: string;
  path: string;
  role: string | undefined;
}

async function adminOperations(baseUrl: string): Promise<AdminOperation[]> {
  const document = (await (await fetch(`${baseUrl}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { 'x-agora-role'?: string }>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/api/v1/admin/'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method: method.toUpperCase(),
        // An id that names nothing: the doors are checked before any row is looked for.
        path: path.replace(/\{\w+\}/g, 'no-such-row'),
        role: operation['x-agora-role'],
      })),
    );
}

const isWrite = (method: string) => method !== 'GET';
/** A body every strict schema refuses: a route past its doors answers 400 or 404, never a change. */
const PROBE_BODY = { probe_field_no_schema_allows: true };

describe.each(DIALECTS)('the console’s doors ($name)', (dialect) => {
  let harness: TestArena;
  let admin: StaffClient;
  let reviewer: StaffClient;
  let operations: AdminOperation[];
  const clock = new MovableClock();

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      runtime: clock.runtime,
      environment: {
        AGORA_ADMIN_TOKEN: ADMIN_TOKEN,
        AGORA_TRUSTED_PROXIES: '127.0.0.1',
        AGORA_LIMIT_SIGN_INS_PER_15_MIN: '3',
        AGORA_LIMIT_SIGN_INS_PER_15_MIN_PER_ACCOUNT: '6',
        AGORA_LIMIT_SIGN_INS_PER_15_MIN_PER_ADDRESS: '5',
        AGORA_CONSOLE_SESSION_IDLE_MIN: '30',
      },
    });
    admin = await signedInStaff(harness.arena, harness.baseUrl, 'admin@example.org', 'admin');
    reviewer = await signedInStaff(harness.arena, harness.baseUrl, 'reviewer@example.org', 'reviewer');
    operations = await adminOperations(harness.baseUrl);
  }, 60_000);
  afterAll(async () => harness?.close());

  it('documents every admin route with the role it needs', () => {
    expect(operations.length).toBeGreaterThan(10);
    for (const operation of operations) expect(operation.role, `${operation.method} ${operation.path}`).toMatch(/^(admin|reviewer)$/);
  });

  it('answers 401 on every admin route without a session or the token, and with a forged one', async () => {
    for (const { method, path } of operations) {
      const forged: Record<string, string>[] = [{}, { cookie: 'agora_staff=forged' }, { authorization: 'Bearer not-the-token' }];
      for (const headers of forged) {
        const response = await fetch(
          `${harness.baseUrl}${path}`,
          jsonRequest(method, isWrite(method) ? PROBE_BODY : undefined, undefined, headers),
        );
        expect(response.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
      }
    }
  });

  it('refuses a reviewer every admin route (403), and lets each member past the doors of their routes', async () => {
    for (const { method, path, role } of operations) {
      const asReviewer = await reviewer.request(method, path, isWrite(method) ? PROBE_BODY : undefined);
      if (role === 'admin') {
        expect(asReviewer.status, `reviewer: ${method} ${path}`).toBe(403);
        expect(asReviewer.json.error.code).toBe('forbidden');
      } else expect([401, 403], `reviewer: ${method} ${path}`).not.toContain(asReviewer.status);
      const asAdmin = await admin.request(method, path, isWrite(method) ? PROBE_BODY : undefined);
      expect([401, 403], `admin: ${method} ${path} → ${asAdmin.text}`).not.toContain(asAdmin.status);
    }
  });

  it('refuses a state change without the session’s CSRF token, or with another session’s', async () => {
    for (const { method, path } of operations.filter((operation) => isWrite(operation.method))) {
      for (const csrf of [false, reviewer.csrfToken, `${admin.csrfToken}x`] as const) {
        const response = await admin.request(method, path, PROBE_BODY, { csrf });
        expect(response.status, `${method} ${path} csrf=${String(csrf).slice(0, 6)}`).toBe(403);
        expect(response.json.error.code).toBe('forbidden');
      }
    }
  });

  it('sets the session cookie HttpOnly, SameSite=Strict, on the API only, and never returns its token in a body', async () => {
    const invited = await harness.arena.console.staff.invite('cookie@example.org', 'reviewer');
    const response = await fetch(
      `${harness.baseUrl}/api/v1/staff/activate`,
      jsonRequest('POST', { token: linkToken(invited.link), password: TEST_PASSWORD }, undefined),
    );
    const cookie = response.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^agora_staff=[\w-]{40,};/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/api(;|$)/);
    expect(await response.text()).not.toContain(cookie.split(';')[0]!.split('=')[1]!);
  });

  it('uses a one-time link once only', async () => {
    const invited = await harness.arena.console.staff.invite('once@example.org', 'reviewer');
    const body = { token: linkToken(invited.link), password: TEST_PASSWORD };
    const first = await fetch(`${harness.baseUrl}/api/v1/staff/activate`, jsonRequest('POST', body, undefined));
    expect(first.status).toBe(200);
    const second = await fetch(`${harness.baseUrl}/api/v1/staff/activate`, jsonRequest('POST', body, undefined));
    expect(second.status).toBe(401);
  });

  it('limits failed guesses per account and address and per account, without locking the owner out from elsewhere, and attempts per address', async () => {
    await signedInStaff(harness.arena, harness.baseUrl, 'target@example.org', 'admin');
    const signIn = (address: string, password: string, email = 'target@example.org') =>
      fetch(`${harness.baseUrl}/api/v1/staff/sign-in`, jsonRequest('POST', { email, password }, undefined, { 'x-forwarded-for': address }));
    const statuses = async (address: string, times: number, password = 'a wrong guess, long enough') => {
      const seen: number[] = [];
      for (let index = 0; index < times; index++) seen.push((await signIn(address, password)).status);
      return seen;
    };
    // Three failures from one address: that address is refused for this account, the right password included.
    const first = await signIn('198.51.100.1', 'a wrong guess, long enough');
    const firstBody = await first.text();
    expect([first.status, ...(await statuses('198.51.100.1', 2))]).toEqual([401, 401, 401]);
    const refused = await signIn('198.51.100.1', TEST_PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The owner, from their own address, is still let in: a success counts nothing against the account.
    expect((await signIn('192.0.2.50', TEST_PASSWORD)).status).toBe(200);
    // Spread over addresses, failures meet the account's own cap (6 here): then every address is refused.
    expect(await statuses('100.64.1.1', 3)).toEqual([401, 401, 401]);
    expect(await statuses('100.64.2.1', 1)).toEqual([429]);

    // One address trying many accounts: refused past its own limit. An unknown e-mail answers as a wrong password does.
    const spread: number[] = [];
    for (let index = 0; index < 6; index++)
      spread.push((await signIn('203.0.113.9', 'a wrong guess, long enough', `nobody${index}@example.org`)).status);
    expect(spread).toEqual([401, 401, 401, 401, 401, 429]);
    const unknown = await (await signIn('203.0.113.10', 'a wrong guess, long enough', 'nobody@example.org')).text();
    expect(unknown).toBe(firstBody);
  });

  it('keeps one live link per member, and a new password ends the sessions and links of the old one', async () => {
    const first = await harness.arena.console.staff.invite('relinked@example.org', 'reviewer');
    const second = await harness.arena.console.staff.invite('relinked@example.org', 'reviewer');
    const use = (link: string, address: string) =>
      fetch(
        `${harness.baseUrl}/api/v1/staff/activate`,
        jsonRequest('POST', { token: linkToken(link), password: TEST_PASSWORD }, undefined, { 'x-forwarded-for': address }),
      );
    expect((await use(first.link, '192.0.2.61')).status).toBe(401);
    const activated = await use(second.link, '192.0.2.62');
    expect(activated.status).toBe(200);
    const member = new StaffClient(harness.baseUrl, activated.headers.get('set-cookie')!.split(';')[0]!, '', 'relinked@example.org');
    expect((await member.request('GET', '/api/v1/admin/review')).status).toBe(200);
    // A new link, used: the session opened under the old password ends.
    const third = await harness.arena.console.staff.invite('relinked@example.org', 'reviewer');
    expect((await use(third.link, '192.0.2.63')).status).toBe(200);
    expect((await member.request('GET', '/api/v1/admin/review')).status).toBe(401);
  });

  it('ends a session at sign-out, at an admin’s revocation, when its member is disabled, and when it idles', async () => {
    const signedOut = await signedInStaff(harness.arena, harness.baseUrl, 'leaver@example.org', 'reviewer');
    expect((await signedOut.request('GET', '/api/v1/staff/session')).status).toBe(200);
    expect((await signedOut.request('DELETE', '/api/v1/staff/session')).status).toBe(204);
    expect((await signedOut.request('GET', '/api/v1/admin/review')).status).toBe(401);

    const revoked = await signedInStaff(harness.arena, harness.baseUrl, 'lost-laptop@example.org', 'reviewer');
    const members = (await admin.request('GET', '/api/v1/admin/staff')).json.staff as { id: string; email: string }[];
    const member = members.find((entry) => entry.email === 'lost-laptop@example.org')!;
    expect((await admin.request('POST', `/api/v1/admin/staff/${member.id}/revoke-sessions`)).json).toEqual({ revoked: 1 });
    expect((await revoked.request('GET', '/api/v1/admin/review')).status).toBe(401);

    const disabled = await signedInStaff(harness.arena, harness.baseUrl, 'gone@example.org', 'reviewer');
    const gone = ((await admin.request('GET', '/api/v1/admin/staff')).json.staff as { id: string; email: string }[]).find(
      (entry) => entry.email === 'gone@example.org',
    )!;
    expect((await admin.request('DELETE', `/api/v1/admin/staff/${gone.id}`)).status).toBe(204);
    expect((await disabled.request('GET', '/api/v1/admin/review')).status).toBe(401);
    const again = await fetch(
      `${harness.baseUrl}/api/v1/staff/sign-in`,
      jsonRequest('POST', { email: 'gone@example.org', password: TEST_PASSWORD }, undefined, { 'x-forwarded-for': '192.0.2.77' }),
    );
    expect(again.status).toBe(401);

    const idle = await signedInStaff(harness.arena, harness.baseUrl, 'idle@example.org', 'reviewer');
    clock.offsetMs += 31 * 60_000;
    try {
      expect((await idle.request('GET', '/api/v1/admin/review')).status).toBe(401);
    } finally {
      clock.offsetMs -= 31 * 60_000;
    }
  });

  it('audits every request past the doors, the token’s as a person’s, refusals of a role included', async () => {
    await reviewer.request('GET', '/api/v1/admin/review?queue=flagged&limit=5');
    await reviewer.request('GET', '/api/v1/admin/audit');
    await fetch(`${harness.baseUrl}/api/v1/admin/upstream-errors`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const log = await admin.request('GET', '/api/v1/admin/audit?limit=1000');
    const entries = log.json.entries as {
      actor: string;
      actor_kind: string;
      method: string;
      route: string;
      target: string | null;
      status: number;
    }[];
    expect(entries).toContainEqual(
      expect.objectContaining({
        actor: 'reviewer@example.org',
        actor_kind: 'staff',
        method: 'GET',
        route: '/api/v1/admin/review',
        target: 'queue=flagged&limit=5',
        status: 200,
      }),
    );
    expect(entries).toContainEqual(expect.objectContaining({ actor: 'reviewer@example.org', route: '/api/v1/admin/audit', status: 403 }));
    expect(entries).toContainEqual(
      expect.objectContaining({ actor: 'admin-token', actor_kind: 'token', route: '/api/v1/admin/upstream-errors', status: 200 }),
    );
    // The admin's own read of the log is the newest entry once answered: the next page shows it.
    const next = await admin.request('GET', '/api/v1/admin/audit?limit=1');
    expect(next.json.entries[0]).toMatchObject({ actor: 'admin@example.org', route: '/api/v1/admin/audit', target: 'limit=1000' });
    // A write's body is in the log, secrets hidden: who was invited, with which role.
    await admin.request('POST', '/api/v1/admin/staff', { email: 'audited@example.org', role: 'admin' });
    await admin.request('POST', '/api/v1/admin/staff', { email: 'audited@example.org', role: 'admin', password: 'never in the log' });
    const writes = (await admin.request('GET', '/api/v1/admin/audit?writes=true&limit=10')).json.entries as typeof entries;
    expect(writes).toContainEqual(
      expect.objectContaining({ route: '/api/v1/admin/staff', target: 'body={"email":"audited@example.org","role":"admin"}', status: 201 }),
    );
    expect(writes).toContainEqual(
      expect.objectContaining({ target: 'body={"email":"audited@example.org","role":"admin","password":"(hidden)"}', status: 400 }),
    );
    // Sign-in attempts are in the log too, failed ones under the e-mail tried.
    const attempts = (await admin.request('GET', '/api/v1/admin/audit?limit=1000')).json.entries as typeof entries;
    expect(attempts).toContainEqual(expect.objectContaining({ actor: 'target@example.org', route: '/api/v1/staff/sign-in', status: 401 }));
    expect(attempts).toContainEqual(expect.objectContaining({ actor: 'admin@example.org', route: '/api/v1/staff/activate', status: 200 }));
    const csv = await admin.request('GET', '/api/v1/admin/audit/export?limit=5');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.text.split('\r\n')[0]).toBe('at,actor_kind,actor,method,route,target,rows,status,address_hash');
  });
});

describe('the audit log as CSV', () => {
  it('quotes separators and defuses what a spreadsheet would run as a formula', () => {
    const entry = {
      id: '1',
      at: '2026-12-03T00:00:00.000Z',
      actor_kind: 'staff' as const,
      actor: 'ana@example.org',
      method: 'GET',
      route: '/api/v1/admin/review',
      target: '=HYPERLINK("http://evil.example")',
      rows: 2,
      status: 200,
      address_hash: null,
    };
    const [, line] = auditCsv([entry]).split('\r\n');
    expect(line).toBe(
      `2026-12-03T00:00:00.000Z,staff,ana@example.org,GET,/api/v1/admin/review,"'=HYPERLINK(""http://evil.example"")",2,200,`,
    );
  });
});

describe.runIf(postgres)('a console session on two instances (postgres)', () => {
  let first: TestArena;
  let second: TestArena;
  let store: Awaited<ReturnType<NonNullable<typeof postgres>['create']>>;
  beforeAll(async () => {
    store = await postgres!.create();
    first = await startTestArena(postgres!, { store, environment: { AGORA_INSTANCES: 'several' } });
    second = await startTestArena(postgres!, { store, environment: { AGORA_INSTANCES: 'several' } });
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await store?.drop();
  });

  it('works on the other instance, and ends there when it ends on the first', async () => {
    const member = await signedInStaff(first.arena, first.baseUrl, 'both@example.org', 'reviewer');
    expect((await member.request('GET', '/api/v1/admin/review', undefined, { baseUrl: second.baseUrl })).status).toBe(200);
    expect((await member.request('DELETE', '/api/v1/staff/session')).status).toBe(204);
    expect((await member.request('GET', '/api/v1/admin/review', undefined, { baseUrl: second.baseUrl })).status).toBe(401);
  });
});
