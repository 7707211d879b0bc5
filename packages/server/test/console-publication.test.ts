import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Writable } from 'node:stream';
import { CSRF_HEADER, type PublicationRun, hubSettingsSchema, publicationOverviewSchema, publicationRunSchema } from '@agora/contract';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { type Store, createStore } from '../src/db/unit-of-work';
import { PUBLICATION_LEASE } from '../src/services/publication/publication-runs';
import { type Seed, seed } from './export-seeds';
import { FakeHub } from './fake-hub/fake-hub';
import { type TestArena, jsonRequest, startTestArena, until } from './test-arena';
import { DIALECTS } from './test-db';

/*
 * The console's publication over real HTTP on both stores: an export run with its progress, the
 * builds, pushes to a fake Hub over real HTTP (files and cards byte for byte, a 429 and a 500
 * weathered, a bad token and a missing repository named), the schedule, and the token, once
 * given, never in any answer, log line, audit entry or stored run.
 */

const ADMIN_TOKEN = 'publication-test-admin-token-0123456789';
const HUB_TOKEN = 'hf_PublicationTestToken0123456789abcdef';
const BAD_TOKEN = 'hf_RevokedTokenNobodyKnows0123456789';
const PUBLIC_REPO = 'agora-test/arena-public';
const GATED_REPO = 'agora-test/arena-gated';

const SEEDS: Seed[] = Array.from({ length: 8 }, (_, index) => ({
  name: `publication conversation ${index}`,
  languages: [index < 5 ? 'fr' : 'en'],
  categories: ['Education'],
  ...(index % 3 === 2 ? {} : { vote: { choice: index % 2 === 0 ? ('a' as const) : ('b' as const) } }),
  reactions: index % 2 === 0 ? [{ turn: 1, side: 'a' as const, value: 'like' as const }] : [],
  at: `2026-11-0${1 + (index % 3)}T10:00:00.000Z`,
}));

/** Every file under `folder`, path → bytes. */
function folderFiles(folder: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(folder, { recursive: true }) as string[]) {
    const path = join(folder, name);
    if (statSync(path).isFile()) files.set(relative(folder, path).split(sep).join('/'), readFileSync(path));
  }
  return files;
}

describe.each(DIALECTS)('the console’s publication ($name)', (dialect) => {
  let arena: TestArena;
  let hub: FakeHub;
  let store: Store;
  let out: string;
  const logLines: string[] = [];
  /** Every answer body the console received, to look for the token in. */
  const answers: string[] = [];
  let admin: (method: string, path: string, body?: unknown) => Promise<{ status: number; json: any; text: string }>;

  beforeAll(async () => {
    hub = await new FakeHub().start();
    hub.tokens.add(HUB_TOKEN);
    hub.repositories.add(PUBLIC_REPO);
    hub.repositories.add(GATED_REPO);
    out = mkdtempSync(join(tmpdir(), 'agora-publication-'));
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    arena = await startTestArena(dialect, {
      environment: {
        AGORA_ADMIN_TOKEN: ADMIN_TOKEN,
        AGORA_HUB_URL: hub.baseUrl,
        AGORA_PUBLICATION_DIR: out,
        AGORA_HUB_PUBLIC_DATASET: PUBLIC_REPO,
      },
      logger: pino({ level: 'trace' }, sink),
    });
    store = createStore(openDatabase(arena.store.location));
    await seed(store, arena.store.location, SEEDS);
    const invited = await arena.arena.console.staff.invite('publisher@agora.example', 'admin');
    const activated = await fetch(
      `${arena.baseUrl}/api/v1/staff/activate`,
      jsonRequest('POST', { token: new URL(invited.link).hash.replace('#token=', ''), password: 'a long enough password' }, undefined),
    );
    expect(activated.status).toBe(200);
    const cookie = activated.headers.get('set-cookie')!.split(';')[0]!;
    const { csrf_token } = (await activated.json()) as { csrf_token: string };
    admin = async (method, path, body) => {
      const answer = await fetch(`${arena.baseUrl}${path}`, jsonRequest(method, body, cookie, { [CSRF_HEADER]: csrf_token }));
      const text = await answer.text();
      answers.push(text);
      return {
        status: answer.status,
        text,
        json: text && answer.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined,
      };
    };
  });

  afterAll(async () => {
    await store?.close();
    await arena?.close();
    await hub?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  const finished = async (run: PublicationRun) =>
    publicationRunSchema.parse(
      (
        await until(
          () => admin('GET', `/api/v1/admin/publication/runs/${run.id}`),
          (answer) => answer.json.status !== 'running',
        )
      ).json,
    );

  let buildId: string;

  it('runs an export with its progress, one at a time across instances, and lists the build with its rows and cards', async () => {
    // Another instance holds the lease: this one refuses to start a second export.
    const now = new Date();
    expect(
      await store.leases.claim(PUBLICATION_LEASE, 'another-instance', now.toISOString(), new Date(now.getTime() + 60_000).toISOString()),
    ).toBe(true);
    const busy = await admin('POST', '/api/v1/admin/publication/exports', {});
    expect(busy.status).toBe(409);
    expect(busy.json.error.code).toBe('publication_busy');
    await store.leases.release(PUBLICATION_LEASE, 'another-instance');

    const started = await admin('POST', '/api/v1/admin/publication/exports', {
      formats: ['parquet', 'jsonl'],
      dataset_license: 'cc-by-4.0',
    });
    expect(started.status).toBe(202);
    expect(started.json).toMatchObject({ kind: 'export', status: 'running', actor: 'publisher@agora.example' });
    const run = await finished(started.json);
    expect(run).toMatchObject({ status: 'done', failure: null });
    expect(run.done).toBe(run.total);
    expect(run.total).toBeGreaterThanOrEqual(SEEDS.length);
    buildId = run.build_id!;

    const overview = publicationOverviewSchema.parse((await admin('GET', '/api/v1/admin/publication')).json);
    const build = overview.builds.find((entry) => entry.id === buildId)!;
    expect(build).toMatchObject({ license: 'cc-by-4.0', formats: ['parquet', 'jsonl'], withdrawn: false, pushed_at: null });
    expect(build.conversations).toBe(SEEDS.length);
    expect(build.datasets.find((dataset) => dataset.name === 'conversations')?.rows).toBe(SEEDS.length);
    expect(build.datasets.find((dataset) => dataset.name === 'votes')?.rows).toBe(SEEDS.filter((entry) => entry.vote).length);
    expect(build.cards.map((card) => card.tier)).toEqual(['public', 'gated']);
    const card = await admin('GET', build.cards[0]!.card_url!);
    expect(card.status).toBe(200);
    expect(card.text).toMatch(/^---\n/);
    expect(card.text).toContain('license: cc-by-4.0');
    expect((await admin('GET', `/api/v1/admin/publication/builds/${buildId}/cards/secret`)).status).toBe(400);
    expect((await admin('GET', '/api/v1/admin/publication/builds/nope/cards/public')).status).toBe(404);
  });

  it('refuses a push without a token, and a token that is not one', async () => {
    const refused = await admin('POST', `/api/v1/admin/publication/builds/${buildId}/push`);
    expect(refused.status).toBe(409);
    expect(refused.json.error.code).toBe('publication_not_configured');
    const invalid = await admin('PUT', '/api/v1/admin/publication/settings', { token: 'ghp_notAHubToken0123456789' });
    expect(invalid.status).toBe(400);
    expect(invalid.text).not.toContain('ghp_notAHubToken');
    expect((await admin('POST', '/api/v1/admin/publication/builds/nope/push')).status).toBe(404);
  });

  it('pushes both folders to their repositories: every file and the cards, byte for byte, through a 429 and a 500', async () => {
    const saved = await admin('PUT', '/api/v1/admin/publication/settings', { token: HUB_TOKEN, gated_repository: GATED_REPO });
    expect(saved.status).toBe(200);
    expect(hubSettingsSchema.parse(saved.json)).toMatchObject({
      public_repository: PUBLIC_REPO,
      gated_repository: GATED_REPO,
      token_set: true,
      token_source: 'console',
      schedule: 'off',
    });
    hub.misbehave({ status: 429, on: 'preupload', retryAfterS: 1 }, { status: 500, on: 'commit' });
    const started = await admin('POST', `/api/v1/admin/publication/builds/${buildId}/push`);
    expect(started.status).toBe(202);
    const run = await finished(started.json);
    expect(run).toMatchObject({ status: 'done', kind: 'push', build_id: buildId, failure: null });
    const folder = join(out, readdirSync(out)[0]!);
    for (const [tier, repository] of [
      ['public', PUBLIC_REPO],
      ['gated', GATED_REPO],
    ] as const) {
      const local = folderFiles(join(folder, tier));
      const pushed = hub.filesOf(repository);
      expect([...pushed.keys()].sort()).toEqual([...local.keys()].sort());
      for (const [path, bytes] of local) expect(pushed.get(path)?.equals(bytes), path).toBe(true);
      expect(pushed.has('README.md')).toBe(true);
      expect([...pushed.keys()].some((path) => path.endsWith('.parquet'))).toBe(true);
      expect(run.pushes.find((push) => push.tier === tier)).toMatchObject({ repository, files: local.size });
    }
    expect(run.done).toBe(run.total);
    // The 429 was waited for, the 500 tried again, and the token went to the Hub as a bearer.
    const statuses = (part: string) => hub.requests.filter((request) => request.path.includes(part)).map((request) => request.status);
    expect(statuses('preupload').slice(0, 2)).toEqual([429, 200]);
    expect(statuses('/commit/').slice(0, 2)).toEqual([500, 200]);
    expect(hub.requests.filter((request) => request.path.includes('preupload'))[1]!.authorization).toBe(`Bearer ${HUB_TOKEN}`);
    const listed = publicationOverviewSchema.parse((await admin('GET', '/api/v1/admin/publication')).json);
    expect(listed.builds.find((build) => build.id === buildId)?.pushed_at).toBe(run.finished_at);
    // The datasets page links the repositories the console publishes to, the gated one set in the console.
    const datasets = (await (await fetch(`${arena.baseUrl}/api/v1/datasets`)).json()) as { export: { hub: unknown } };
    expect(datasets.export.hub).toEqual({
      public: `https://huggingface.co/datasets/${PUBLIC_REPO}`,
      gated: `https://huggingface.co/datasets/${GATED_REPO}`,
    });
  });

  it('names a refused token and a missing repository', async () => {
    await admin('PUT', '/api/v1/admin/publication/settings', { token: BAD_TOKEN });
    const unauthorized = await finished((await admin('POST', `/api/v1/admin/publication/builds/${buildId}/push`)).json);
    expect(unauthorized).toMatchObject({ status: 'failed', failure: 'hub_unauthorized' });
    expect(unauthorized.detail).toContain('Invalid credentials');
    await admin('PUT', '/api/v1/admin/publication/settings', { token: HUB_TOKEN, public_repository: 'agora-test/never-created' });
    const missing = await finished((await admin('POST', `/api/v1/admin/publication/builds/${buildId}/push`)).json);
    expect(missing).toMatchObject({ status: 'failed', failure: 'hub_repository_not_found' });
    await admin('PUT', '/api/v1/admin/publication/settings', { public_repository: null });
    expect((await admin('GET', '/api/v1/admin/publication/settings')).json.public_repository).toBe(PUBLIC_REPO);
  });

  it('publishes on schedule once due: an export, then its push', async () => {
    const publication = arena.arena.console.publication;
    expect(await publication.publishIfDue()).toBe(false);
    const scheduled = await admin('PUT', '/api/v1/admin/publication/settings', { schedule: 'daily' });
    expect(scheduled.json).toMatchObject({ schedule: 'daily', last_scheduled_at: null });
    const commits = hub.commits.length;
    const before = new Date().toISOString();
    expect(await publication.publishIfDue()).toBe(true);
    await publication.runs.current;
    const overview = publicationOverviewSchema.parse((await admin('GET', '/api/v1/admin/publication')).json);
    const run = overview.runs[0]!;
    expect(run).toMatchObject({ kind: 'scheduled', status: 'done', actor: 'schedule' });
    expect(run.build_id).not.toBe(buildId);
    expect(hub.commits.length).toBe(commits + 2);
    // The time it found the schedule due, just before the run started.
    expect(overview.settings.last_scheduled_at! >= before && overview.settings.last_scheduled_at! <= run.started_at).toBe(true);
    expect(overview.settings.next_scheduled_at).toBe(new Date(Date.parse(overview.settings.last_scheduled_at!) + 86_400_000).toISOString());
    expect(await publication.publishIfDue()).toBe(false);
  });

  it('keeps the token out of every answer, log line, audit entry and stored run; the audit log has the actions', async () => {
    const audit = await admin('GET', '/api/v1/admin/audit?writes=true&limit=1000');
    const routes = (audit.json.entries as { route: string; actor: string }[]).map((entry) => `${entry.actor} ${entry.route}`);
    expect(routes).toContain('publisher@agora.example /api/v1/admin/publication/exports');
    expect(routes).toContain('publisher@agora.example /api/v1/admin/publication/builds/:id/push');
    const csv = await admin('GET', '/api/v1/admin/audit/export?limit=1000');
    const runs = await store.publication.recentRuns(100);
    const everything = [...answers, ...logLines, csv.text, JSON.stringify(runs)].join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    for (const token of [HUB_TOKEN, BAD_TOKEN]) expect(everything).not.toContain(token);
    // …but the token is stored, and used.
    expect(hub.requests.some((request) => request.authorization === `Bearer ${HUB_TOKEN}`)).toBe(true);
  });

  it('is for admins only', async () => {
    const invited = await arena.arena.console.staff.invite('reviewer@agora.example', 'reviewer');
    const activated = await fetch(
      `${arena.baseUrl}/api/v1/staff/activate`,
      jsonRequest('POST', { token: new URL(invited.link).hash.replace('#token=', ''), password: 'a long enough password' }, undefined),
    );
    const cookie = activated.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${arena.baseUrl}/api/v1/admin/publication`, { headers: { cookie } })).status).toBe(403);
    expect((await fetch(`${arena.baseUrl}/api/v1/admin/publication`)).status).toBe(401);
  });
});
