import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { myDuelsExportSchema, myDuelsSchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowContext } from '../src/adapters/dataset-files/row-context';
import { openDatabase } from '../src/db/dialect';
import { inlineRankingComputer } from '../src/adapters/ranking-worker/ranking-computer';
import { LeaderboardService } from '../src/services/leaderboard.service';
import { systemRuntime } from '../src/services/ports/runtime';
import { filesUnder } from './export-files';
import { runAgora } from './run-agora';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, startTestArena, testCatalogueYaml, until } from './test-arena';

const TOKEN = 'my-duels-token-0123456789';

/**
 * "My duels" through the real arena on both stores: a visitor lists, downloads and erases their own
 * duels; another cookie sees and erases nothing of theirs; an erased duel's text is in no byte of a
 * later export (public and gated tiers, every subset), nor in the review queue or the optimised set's
 * items, and its vote stops counting at the next leaderboard refresh (docs/privacy.md#your-duels).
 */
describe.each(DIALECTS)('my duels ($name)', (dialect) => {
  let harness: TestArena;
  let other: ArenaClient;
  let folder: string;
  let environment: Record<string, string>;
  const prompts = {
    kept: 'Explique les marées [mine-kept-4c1e] simplement.',
    erased: 'Décris mon voisin Paul [mine-erased-9b7d] en détail.',
    later: 'Écris un haïku [mine-later-2f08] sur la pluie.',
    others: 'Un autre visiteur demande [theirs-5a3c] une recette.',
  } as const;
  const ids = {} as Record<keyof typeof prompts, string>;
  let exportCount = 0;

  const play = async (client: ArenaClient, key: keyof typeof prompts) => {
    const created = await client.request('POST', '/api/v1/duels', { prompt: prompts[key], mode: 'random' });
    expect(created.status).toBe(201);
    await client.stream(created.json.id);
    ids[key] = created.json.id as string;
    const marker = /\[([^\]]+)\]/.exec(prompts[key])![1]!;
    const react = { side: 'a', turn: 1, value: 'dislike', tags: ['superficial'], comment: `reaction ${marker}` };
    expect((await client.request('POST', `/api/v1/duels/${ids[key]}/reactions`, react)).status).toBe(200);
    const vote = { choice: 'b', tags: { b: ['useful'] }, comments: { a: `vote ${marker}` } };
    expect((await client.request('POST', `/api/v1/duels/${ids[key]}/vote`, vote)).status).toBe(200);
  };

  /** Every byte of a new export's files (Parquet, JSONL, cards; both tiers). */
  const exportBytes = async (): Promise<string> => {
    const out = join(folder, `export-${(exportCount += 1)}`);
    const outcome = await runAgora(['export', '--out', out, '--format', 'parquet,jsonl'], '', environment);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    return filesUnder(out)
      .map((path) => readFileSync(path).toString('latin1') + readFileSync(path, 'utf8'))
      .join('\n');
  };

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      environment: { AGORA_ADMIN_TOKEN: TOKEN, AGORA_POSTPROCESS_EVERY_S: '0.05', AGORA_POSTPROCESS_IDLE_S: '3600', AGORA_MIN_VOTES: '1' },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0, text: 'Voici une réponse simple et complète, écrite pour tout le monde.' };
    await play(harness.client, 'kept');
    await play(harness.client, 'erased');
    await play(harness.client, 'later');
    other = new ArenaClient(harness.baseUrl);
    await play(other, 'others');
    expect(
      (
        await harness.client.request('POST', `/api/v1/duels/${ids.later}/report`, {
          category: 'other',
          reason: 'report [mine-later-2f08]',
        })
      ).status,
    ).toBe(202);
    for (const id of Object.values(ids))
      await until(
        () => harness.arena.store.annotations.find(id),
        (found) => found?.status === 'done',
      );
    folder = mkdtempSync(join(tmpdir(), 'agora-my-duels-'));
    writeFileSync(join(folder, 'models.yaml'), testCatalogueYaml(harness.fake.baseUrl));
    const location = harness.store.location;
    environment = {
      DATABASE_URL: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url,
      AGORA_MODELS: join(folder, 'models.yaml'),
    };
  });
  afterAll(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("lists only the cookie's own duels, newest first, with prompts, answers, reactions, vote, report and models once voted", async () => {
    const mine = await harness.client.request('GET', '/api/v1/duels');
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('no-store');
    const body = myDuelsSchema.parse(mine.json);
    expect(body.duels.map((duel) => duel.id)).toEqual([ids.later, ids.erased, ids.kept]);
    const erased = body.duels[1]!;
    expect(erased.turns[0]).toMatchObject({ turn: 1, prompt: prompts.erased, status: 'complete' });
    expect(erased.turns[0]!.a.text).toContain('Voici une réponse');
    expect(erased.reactions).toEqual([
      expect.objectContaining({ side: 'a', value: 'dislike', tags: ['superficial'], comment: 'reaction mine-erased-9b7d' }),
    ]);
    expect(erased.vote).toMatchObject({ choice: 'b', tags: { a: [], b: ['useful'] }, comments: { a: 'vote mine-erased-9b7d', b: null } });
    expect(erased.reports).toEqual([]);
    expect(body.duels[0]!.reports).toEqual([
      expect.objectContaining({ category: 'other', reason: 'report [mine-later-2f08]', state: 'pending' }),
    ]);
    expect(erased.models?.a.id).toMatch(/\S/);
    const theirs = myDuelsSchema.parse((await other.request('GET', '/api/v1/duels')).json);
    expect(theirs.duels.map((duel) => duel.id)).toEqual([ids.others]);
    expect(JSON.stringify(theirs)).not.toContain('mine-');
  });

  it('never names the models of a duel not voted on', async () => {
    const blind = new ArenaClient(harness.baseUrl);
    const created = await blind.request('POST', '/api/v1/duels', { prompt: 'Pas encore voté [blind-77aa].' });
    await blind.stream(created.json.id);
    const body = myDuelsSchema.parse((await blind.request('GET', '/api/v1/duels')).json);
    expect(body.duels).toHaveLength(1);
    expect(body.duels[0]!.models).toBeNull();
    expect(body.duels[0]!.vote).toBeNull();
    const modelIds = (await harness.arena.store.duels.findById(created.json.id))!;
    const text = JSON.stringify(body);
    expect(text.includes(`"${modelIds.modelA}"`) || text.includes(`"${modelIds.modelB}"`)).toBe(false);
    expect((await blind.request('DELETE', `/api/v1/duels/${created.json.id}`)).status).toBe(200);
  });

  it('downloads the same duels as a JSON file', async () => {
    const response = await fetch(`${harness.baseUrl}/api/v1/duels/export`, { headers: { cookie: harness.client.visitorCookie! } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="agora-my-duels-\d{4}-\d{2}-\d{2}\.json"$/);
    const file = myDuelsExportSchema.parse(await response.json());
    expect(file.duels.map((duel) => duel.turns[0]!.prompt)).toEqual([prompts.later, prompts.erased, prompts.kept]);
  });

  it('refuses another cookie, no cookie and malformed ids with the error body, and confirms no id', async () => {
    const foreign = await other.request('DELETE', `/api/v1/duels/${ids.erased}`);
    expect(foreign.status).toBe(404);
    expect(foreign.json.error.code).toBe('duel_not_found');
    const unknown = await other.request('DELETE', `/api/v1/duels/${'x'.repeat(22)}`);
    expect({ status: unknown.status, body: unknown.json }).toEqual({ status: foreign.status, body: foreign.json });
    const anonymous = await fetch(`${harness.baseUrl}/api/v1/duels/${ids.erased}`, { method: 'DELETE' });
    expect(anonymous.status).toBe(404);
    const anonymousList = await fetch(`${harness.baseUrl}/api/v1/duels`);
    expect(((await anonymousList.json()) as { duels: unknown[] }).duels).toEqual([]);
    for (const bad of ['short', 'bad%21id%21id%21id', `${'a'.repeat(65)}`, 'export']) {
      const refused = await harness.client.request('DELETE', `/api/v1/duels/${bad}`);
      expect({ bad, status: refused.status }).toEqual({ bad, status: 400 });
      expect(refused.json.error.code).toBe('invalid_request');
    }
    const stillThere = myDuelsSchema.parse((await harness.client.request('GET', '/api/v1/duels')).json);
    expect(stillThere.duels).toHaveLength(3);
    // Requests without a cookie own nothing and spend nothing of the address's 600 erasures an hour: the
    // visitor behind the same address still erases in the next test (it was 429 for an hour before).
    for (let batch = 0; batch < 31; batch += 1)
      await Promise.all(
        Array.from({ length: 20 }, async () => {
          const response = await fetch(`${harness.baseUrl}/api/v1/duels`, { method: 'DELETE' });
          expect({ status: response.status, body: await response.json() }).toEqual({ status: 200, body: { erased: 0 } });
        }),
      );
    // A follow-up that started after the service looked: the erasure's transaction leaves that duel whole.
    const db = openDatabase(harness.store.location);
    const status = async (value?: string) => {
      if (value) await db.updateTable('duels').set({ status: value }).where('id', '=', ids.kept).execute();
      return (await db.selectFrom('duels').select('status').where('id', '=', ids.kept).executeTakeFirstOrThrow()).status;
    };
    const before = await status();
    await status('streaming');
    const erased = await harness.arena.store.transaction((repositories) =>
      repositories.visitorDuels.eraseDuels([ids.kept], [], new Date().toISOString()),
    );
    expect(erased).toEqual([]);
    expect(await status(before)).toBe(before);
    await db.destroy();
  });

  it('erases one duel: its text leaves every later export, the review queue and the optimised items; its vote leaves the next refresh', async () => {
    const before = await exportBytes();
    // The reported duel stays out until a reviewer decides (docs/privacy.md#review).
    for (const marker of ['mine-kept-4c1e', 'mine-erased-9b7d', 'mine-later-2f08', 'theirs-5a3c'])
      expect({ marker, present: before.includes(marker) }).toEqual({ marker, present: marker !== 'mine-later-2f08' });
    // An optimised-set item made from the duel before its erasure (its key holds the exported pair id).
    const salt = await harness.arena.store.datasets.visitorSalt(() => 'unused');
    const { a, b } = rowContext(salt, new Map()).sideIds(ids.erased);
    const itemKey = `run-1|2026-12-01T00:00:00.000Z|${a}-${b}|arena`;
    await harness.arena.store.maxx.saveItem({
      itemKey,
      runKey: 'run-1',
      subset: 'arena',
      sourceId: `${a}-${b}`,
      language: 'fr',
      status: 'kept',
      reason: null,
      row: { prompt: prompts.erased },
      stats: {} as never,
      createdAt: new Date().toISOString(),
    });
    const refreshed = await harness.arena.leaderboards.refresh();
    // Another instance on the same store, with its own kept votes: it must see the erasure too.
    const otherInstance = new LeaderboardService({
      store: harness.arena.store,
      catalogue: harness.arena.catalogue,
      computer: inlineRankingComputer,
      runtime: systemRuntime,
      settings: { minVotes: 1, impact: { method: '0.9.1', zone: undefined } },
    });
    expect((await otherInstance.refresh()).votes).toBe(refreshed.votes);
    expect((await otherInstance.refresh()).read).toBe('changes');
    const epoch = await harness.arena.store.feedback.rankingEpoch();

    const erased = await harness.client.request('DELETE', `/api/v1/duels/${ids.erased}`);
    expect({ status: erased.status, body: erased.json }).toEqual({ status: 200, body: { erased: 1 } });
    const again = await harness.client.request('DELETE', `/api/v1/duels/${ids.erased}`);
    expect({ status: again.status, code: again.json.error.code }).toEqual({ status: 404, code: 'duel_not_found' });
    expect((await harness.client.request('GET', `/api/v1/duels/${ids.erased}`)).status).toBe(404);

    // Every instance drops the erased vote at its next refresh, from its tombstone, without reading every vote again.
    expect(await harness.arena.store.feedback.rankingEpoch()).toBe(epoch);
    const after = await harness.arena.leaderboards.refresh();
    expect({ read: after.read, votes: after.votes }).toEqual({ read: 'changes', votes: refreshed.votes - 1 });
    const afterOnOther = await otherInstance.refresh();
    expect({ read: afterOnOther.read, votes: afterOnOther.votes }).toEqual({ read: 'changes', votes: refreshed.votes - 1 });
    // As many as a full read of the store finds.
    const fresh = new LeaderboardService({
      store: harness.arena.store,
      catalogue: harness.arena.catalogue,
      computer: inlineRankingComputer,
      runtime: systemRuntime,
      settings: { minVotes: 1, impact: { method: '0.9.1', zone: undefined } },
    });
    expect((await fresh.refresh()).votes).toBe(refreshed.votes - 1);

    const admin = { authorization: `Bearer ${TOKEN}` };
    expect((await harness.client.request('GET', `/api/v1/admin/review/${ids.erased}`, undefined, admin)).status).toBe(404);
    const reported = () => harness.client.request('GET', '/api/v1/admin/review?queue=reported', undefined, admin);
    expect(JSON.stringify((await reported()).json)).toContain('mine-later-2f08');
    expect((await harness.arena.store.maxx.listItems('run-1')).map((item) => item.itemKey)).not.toContain(itemKey);

    // The export made before the erasure may hold the duel in its files: the arena serves them no more.
    type Listed = { export: { id: string; files: { path: string; url: string | null }[] } | null };
    const withdrawn = (await harness.client.request('GET', '/api/v1/datasets')).json as Listed;
    expect(withdrawn.export!.files.length).toBeGreaterThan(0);
    expect(withdrawn.export!.files.filter((file) => file.url !== null)).toEqual([]);
    const download = `/api/v1/datasets/${withdrawn.export!.id}/files/${withdrawn.export!.files[0]!.path}`;
    expect((await fetch(`${harness.baseUrl}${download}`)).status).toBe(404);

    const later = await exportBytes();
    expect(later.includes('mine-erased-9b7d')).toBe(false);
    // The next export, made after the erasure, is served again.
    const served = (await harness.client.request('GET', '/api/v1/datasets')).json as Listed;
    expect(served.export!.id).not.toBe(withdrawn.export!.id);
    expect(served.export!.files.filter((file) => file.url === null)).toEqual([]);
    const file = await fetch(`${harness.baseUrl}${served.export!.files[0]!.url!}`);
    expect(file.status).toBe(200);
    await file.arrayBuffer();
    // Nor in the previews of the exports made before, which the datasets page shows.
    const published = await harness.client.request('GET', '/api/v1/datasets');
    expect(published.status).toBe(200);
    expect(JSON.stringify(published.json)).not.toContain('mine-erased-9b7d');
    for (const marker of ['mine-kept-4c1e', 'theirs-5a3c'])
      expect({ marker, present: later.includes(marker) }).toEqual({ marker, present: true });
    const listed = myDuelsSchema.parse((await harness.client.request('GET', '/api/v1/duels')).json);
    expect(listed.duels.map((duel) => duel.id)).toEqual([ids.later, ids.kept]);
  }, 120_000);

  it("erases all of the cookie's duels and none of another's, reports included", async () => {
    const admin = { authorization: `Bearer ${TOKEN}` };
    const erased = await harness.client.request('DELETE', '/api/v1/duels');
    expect({ status: erased.status, body: erased.json }).toEqual({ status: 200, body: { erased: 2 } });
    expect(myDuelsSchema.parse((await harness.client.request('GET', '/api/v1/duels')).json).duels).toEqual([]);
    expect((await harness.client.request('DELETE', '/api/v1/duels')).json).toEqual({ erased: 0 });
    expect(myDuelsSchema.parse((await other.request('GET', '/api/v1/duels')).json).duels).toHaveLength(1);
    const later = await exportBytes();
    for (const marker of ['mine-kept-4c1e', 'mine-later-2f08', 'mine-erased-9b7d'])
      expect({ marker, present: later.includes(marker) }).toEqual({ marker, present: false });
    expect(later.includes('theirs-5a3c')).toBe(true);
    const reported = await harness.client.request('GET', '/api/v1/admin/review?queue=reported', undefined, admin);
    expect(reported.status).toBe(200);
    expect(JSON.stringify(reported.json)).not.toContain('mine-later-2f08');
  }, 120_000);

  it.runIf(dialect.name === 'sqlite')('leaves none of the erased bytes in the SQLite file once the log is checkpointed', () => {
    const location = harness.store.location;
    if (location.kind !== 'sqlite') return;
    const connection = new SqliteDatabase(location.path);
    connection.pragma('busy_timeout = 5000');
    // Once the log is copied into the file and cut, only the file holds the store's bytes.
    expect(connection.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
    connection.close();
    const bytes = [location.path, `${location.path}-wal`]
      .filter(existsSync)
      .map((path) => readFileSync(path).toString('latin1'))
      .join('');
    expect(bytes.includes('theirs-5a3c')).toBe(true);
    for (const marker of ['mine-kept-4c1e', 'mine-erased-9b7d', 'mine-later-2f08'])
      expect({ marker, present: bytes.includes(marker) }).toEqual({ marker, present: false });
  });
});
