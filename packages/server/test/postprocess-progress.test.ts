import { afterEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { DIALECTS, type TestStore } from './test-db';
import { markerLanguageDetector } from './in-process/screening';
import { inlineRulesLayer } from '../src/adapters/rules-layer/rules-layer';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import type { Database } from '../src/db/database';
import { createStore } from '../src/db/unit-of-work';
import { PostprocessJob } from '../src/jobs/postprocess.job';
import { PostprocessService } from '../src/services/postprocess.service';

const PENDING = 130;

/** Finished, voted conversations of one turn that post-processing never saw (as after an import). */
async function seedPending(db: Kysely<Database>): Promise<void> {
  const at = '2026-01-01T00:00:00.000Z';
  const ids = Array.from({ length: PENDING }, (_, index) => `pending-${String(index).padStart(4, '0')}`);
  await db
    .insertInto('duels')
    .values(
      ids.map((id) => ({
        id,
        visitor_hash: `visitor-${id}`,
        mode: 'random',
        model_a: 'model-a',
        model_b: 'model-b',
        chosen_models: null,
        locale: 'fr',
        status: 'voted',
        turn_count: 1,
        created_at: at,
        updated_at: at,
      })),
    )
    .execute();
  await db
    .insertInto('turns')
    .values(
      ids.map((id, index) => ({
        duel_id: id,
        turn: 1,
        prompt: `Question numéro ${index} sur le climat`,
        status: 'complete',
        started_at: at,
        ended_at: at,
      })),
    )
    .execute();
  await db
    .insertInto('turn_sides')
    .values(
      ids.flatMap((id) =>
        (['a', 'b'] as const).map((side) => ({
          duel_id: id,
          turn: 1,
          side,
          model_id: `model-${side}`,
          text: 'Une réponse courte.',
          output_tokens: 4,
          status: 'complete',
          identity_leak: 0,
        })),
      ),
    )
    .execute();
}

describe.each(DIALECTS)('post-processing’s first sweep after a start ($name)', (dialect) => {
  let testStore: TestStore | undefined;
  let db: Kysely<Database> | undefined;
  afterEach(async () => {
    await db?.destroy();
    await testStore?.drop();
  });

  it('logs its progress with the time left, then its end, on a store with pending conversations', async () => {
    testStore = await dialect.create();
    db = openDatabase(testStore.location);
    await migrateToLatest(db);
    await seedPending(db);
    // A clock that moves a second at each look: the passes take "long" enough to report.
    let clock = Date.parse('2026-06-01T00:00:00.000Z');
    const runtime = { now: () => new Date((clock += 1000)), newId: () => 'id', random: () => 0.5 };
    const lines: { fields: Record<string, number>; message: string }[] = [];
    const service = new PostprocessService(createStore(db), inlineRulesLayer(markerLanguageDetector), undefined, runtime, {
      maxAttempts: 3,
      retryDelayMs: 1000,
      idleMs: 60_000,
      concurrency: 4,
      progressLog: (fields, message) => lines.push({ fields, message }),
    });
    const job = new PostprocessJob(service, { everyMs: 3_600_000, afterVoteMs: 1000, batchSize: 50 }, (message, error) => {
      throw new Error(`${message}: ${String(error)}`);
    });
    job.start();
    await job.idle();
    await job.stop();

    const progress = lines.filter((line) => line.message.startsWith('post-processing: first sweep over'));
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (const line of progress) {
      expect(line.fields.total).toBe(PENDING);
      expect(line.fields.read).toBeGreaterThan(0);
      expect(line.fields.read).toBeLessThan(PENDING);
      expect(Number.isFinite(line.fields.eta_s)).toBe(true);
    }
    expect(progress[0]!.fields.eta_s).toBeGreaterThan(progress.at(-1)!.fields.eta_s!);
    expect(lines.at(-1)).toMatchObject({ message: 'post-processing: first sweep done', fields: { read: PENDING } });
    expect(
      await createStore(db).annotations.countDue({
        now: new Date(clock).toISOString(),
        idleBefore: new Date(clock).toISOString(),
        modelConfigured: false,
      }),
    ).toBe(0);
    // Later passes are not the first sweep: they log nothing more.
    const before = lines.length;
    await service.runDue(50);
    expect(lines.length).toBe(before);
  });
});
