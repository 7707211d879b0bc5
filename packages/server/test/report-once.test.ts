import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, countRows } from './test-db';
import { type TestArena, startTestArena } from './test-arena';

/**
 * Each target of a report (the conversation, or one answer) is reported once, however many reports
 * of it arrive at once: on PostgreSQL, INSERT … WHERE NOT EXISTS alone let concurrent reports all
 * in (75 rows for 20 targets reported 5 times at once); the unique index on the target keeps one.
 */
describe.each(DIALECTS)('reports of one target at once ($name)', (dialect) => {
  let harness: TestArena;
  let duelId: string;
  beforeAll(async () => {
    harness = await startTestArena(dialect);
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
    duelId = created.json.id as string;
    await harness.client.stream(duelId);
  });
  afterAll(() => harness.close());

  it('store one report per target, the conversation as well as each answer', async () => {
    const before = (await countRows(harness.store.location)).reports!;
    const targets = [
      { turn: null, side: null },
      ...Array.from({ length: 19 }, (_, index) => ({ turn: index + 1, side: index % 2 ? 'a' : 'b' })),
    ];
    for (const [round, target] of targets.entries()) {
      await Promise.all(
        Array.from({ length: 5 }, (_, index) =>
          harness.arena.store.feedback.insertReportOnce({
            id: `report-${round}-${index}`,
            duelId,
            category: 'misleading',
            reason: `report ${index}`,
            ...target,
            createdAt: new Date().toISOString(),
          }),
        ),
      );
    }
    expect((await countRows(harness.store.location)).reports! - before).toBe(targets.length);
  });
});
