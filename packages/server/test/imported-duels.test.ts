import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComparIaImportService } from '../src/services/comparia-import.service';
import { DIALECTS, countRows } from './test-db';
import { type TestArena, startTestArena } from './test-arena';

const fixtures = fileURLToPath(new URL('./fixtures/comparia/', import.meta.url));

/**
 * Imported duels have ids derived from public compar:IA pair ids: they are data, not duels a
 * visitor can play. Every visitor action on one answers 404 and changes nothing, while the admin
 * review API still sees them.
 */
describe.each(DIALECTS)('imported duels are read-only for visitors ($name)', (dialect) => {
  let harness: TestArena;
  let ids: { unvoted: string; voted: string };
  beforeAll(async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_ADMIN_TOKEN: 'imported-token-0123456789', AGORA_POSTPROCESS: '0' } });
    const store = harness.arena.store;
    await new ComparIaImportService(store).importFiles(
      {
        conversations: `${fixtures}conversations.jsonl`,
        votes: `${fixtures}votes.jsonl`,
      },
      { trustSource: true },
    );
    const imported = [...(await store.comparIaImport.findDuels('comparia', ['p1', 'p2', 'p3', 'p4', 'p5', 'p6'])).values()];
    const unvoted = imported.find((duel) => duel.status === 'ready');
    const voted = imported.find((duel) => duel.status === 'voted');
    expect(unvoted && voted).toBeTruthy();
    ids = { unvoted: unvoted!.id, voted: voted!.id };
  });
  afterAll(() => harness.close());

  it('answers 404 duel_not_found to every visitor action and stores nothing', async () => {
    const before = await countRows(harness.store.location);
    const { client } = harness;
    for (const id of [ids.unvoted, ids.voted]) {
      const attempts = [
        client.request('GET', `/api/v1/duels/${id}`),
        client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' }),
        client.request('POST', `/api/v1/duels/${id}/messages`, { prompt: 'Et ensuite ?' }),
        client.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'a', turn: 1, value: 'like' }),
        client.request('POST', `/api/v1/duels/${id}/report`, { reason: 'test' }),
        client.request('GET', `/api/v1/duels/${id}/stream`),
      ];
      for (const response of await Promise.all(attempts))
        expect({ status: response.status, code: response.json?.error?.code }).toEqual({ status: 404, code: 'duel_not_found' });
    }
    expect(await countRows(harness.store.location)).toEqual(before);
    expect(harness.fake.requests).toHaveLength(0);
    // Reviewers still see them.
    const review = await client.request('GET', `/api/v1/admin/review/${ids.unvoted}`, undefined, {
      authorization: 'Bearer imported-token-0123456789',
    });
    expect(review.status).toBe(200);
    expect(review.json.source).toBe('comparia');
  });
});
