import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importedDuelId } from '../../src/adapters/comparia-ids';
import { VoteFileError } from '../../src/adapters/vote-files/vote-file-error';
import { ComparIaImportService } from '../../src/services/comparia-import.service';
import { type InProcessArena, startInProcessArena } from './harness';
import { exportableIds, screeningService } from './screening';

/**
 * `agora import comparia` into the in-process arena's store: a few rows of compar:IA's files (the
 * fixtures: four conversation pairs, their votes and reactions), some of them edited into bad or
 * personal rows in a temporary folder. Then the arena's leaderboard, post-processing and export
 * predicate read what was imported.
 */

const fixtures = fileURLToPath(new URL('../fixtures/comparia/', import.meta.url));
const fixture = (dataset: string) => `${fixtures}${dataset}.jsonl`;
const rowsOf = (dataset: string) =>
  readFileSync(fixture(dataset), 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const pairIds = rowsOf('conversations').map((row) => String(row.conversation_pair_id));

const folder = mkdtempSync(join(tmpdir(), 'agora-in-process-comparia-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let written = 0;
/** A file of these rows, one JSON object (or raw line) a line. */
function fileOf(rows: readonly (Record<string, unknown> | string)[]): string {
  const path = join(folder, `rows-${++written}.jsonl`);
  writeFileSync(path, `${rows.map((row) => (typeof row === 'string' ? row : JSON.stringify(row))).join('\n')}\n`);
  return path;
}

let harness: InProcessArena;
beforeEach(async () => {
  harness = await startInProcessArena({ AGORA_LEADERBOARD_MIN_VOTES: '1' });
});
afterEach(() => harness.close());

const importer = () => new ComparIaImportService(harness.arena.store);
const duelIds = pairIds.map(importedDuelId);

describe('the compar:IA import, in process', () => {
  it('imports conversations, votes and reactions once: a second run adds nothing, and the leaderboard counts each vote once', async () => {
    const files = { conversations: fixture('conversations'), votes: fixture('votes'), reactions: fixture('reactions') };
    const first = await importer().importFiles(files, { batchSize: 2 });
    expect(first.map(({ dataset, inserted }) => [dataset, inserted])).toEqual([
      ['conversations', 4],
      ['votes', 4],
      ['reactions', expect.any(Number)],
    ]);
    // A reaction row without a like or a dislike is skipped, and the summary says why.
    expect(first[2]!.skipped).toEqual({ 'no like or dislike': 1 });
    const imports = harness.arena.store.comparIaImport;
    const storedVotes = await imports.findVotes(duelIds);
    const storedReactions = await imports.findReactions(duelIds);
    await harness.arena.leaderboards.refresh();
    const votesRanked = harness.arena.leaderboards.latestOverall()?.n_votes;
    expect(votesRanked).toBeGreaterThan(0);

    const again = await importer().importFiles(files, { batchSize: 3 });
    expect(again.map(({ inserted, updated, present, conversationsCreated }) => [inserted, updated, present, conversationsCreated])).toEqual(
      first.map(({ inserted }) => [0, 0, inserted, 0]),
    );
    expect(await imports.findVotes(duelIds)).toEqual(storedVotes);
    expect(await imports.findReactions(duelIds)).toEqual(storedReactions);
    await harness.arena.leaderboards.refresh();
    expect(harness.arena.leaderboards.latestOverall()?.n_votes).toBe(votesRanked);
  });

  it('stops at a row it cannot read, naming the file and line, and writes nothing of that file; the fixed file then completes the import', async () => {
    const conversations = await importer().importFiles({ conversations: fixture('conversations') });
    expect(conversations[0]).toMatchObject({ inserted: 4 });
    const votes = rowsOf('votes');
    const broken = fileOf([votes[0]!, votes[1]!, { ...votes[2], chosen_model_name: 'someone-else' }, votes[3]!]);
    const failure = await importer()
      .importFiles({ votes: broken })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(VoteFileError);
    expect((failure as Error).message).toContain(`${broken}, line 3: chosen_model_name "someone-else" is neither`);
    expect((await harness.arena.store.comparIaImport.findVotes(duelIds)).size).toBe(0);

    const truncated = fileOf([votes[0]!, '{"id": 3,']);
    await expect(importer().importFiles({ votes: truncated })).rejects.toThrow(`${truncated}, line 2: invalid JSON`);

    const [fixed] = await importer().importFiles({ votes: fixture('votes') });
    expect(fixed).toMatchObject({ read: votes.length, inserted: 4 });
    expect((await harness.arena.store.comparIaImport.findVotes(duelIds)).size).toBeGreaterThan(0);
  });

  it('skips a conversation row without messages and counts why, importing the others', async () => {
    const rows = rowsOf('conversations');
    const [summary] = await importer().importFiles({ conversations: fileOf([rows[0]!, { ...rows[1], conversation_b: null }, rows[2]!]) });
    expect(summary).toMatchObject({ read: 3, inserted: 2, skipped: { 'no messages': 1 } });
    const stored = await harness.arena.store.comparIaImport.findDuels('comparia', pairIds);
    expect([...stored.keys()].sort()).toEqual([pairIds[0], pairIds[2]].sort());
  });
});

describe('imported conversations and the screening, in process', () => {
  /** The conversations file with an e-mail address in the second pair's prompts (compar:IA published it as screened). */
  function conversationsWithEmail(): string {
    return fileOf(
      rowsOf('conversations').map((row, index) => {
        if (index !== 1) return row;
        const withEmail = (messages: { role: string; content: string }[]) =>
          messages.map((message) =>
            message.role === 'user' ? { ...message, content: `${message.content} Écrivez-moi à jeanne.martin@orange.fr` } : message,
          );
        return {
          ...row,
          conversation_a: withEmail(row.conversation_a as { role: string; content: string }[]),
          conversation_b: withEmail(row.conversation_b as { role: string; content: string }[]),
        };
      }),
    );
  }

  it('waits for this arena’s screening, which keeps out the one with personal data and keeps compar:IA’s topics', async () => {
    const conversations = conversationsWithEmail();
    await importer().importFiles({ conversations });
    expect(await harness.arena.store.annotations.find(duelIds[0]!)).toMatchObject({ status: 'pending', modelId: 'comparia' });
    expect(await exportableIds(harness.arena.store)).toEqual([]);

    expect(await screeningService(harness, { withModel: false }).runDue(10)).toMatchObject({ processed: 4, done: 4, flagged: 1 });
    expect(await harness.arena.store.annotations.find(duelIds[1]!)).toMatchObject({ containsPii: true, piiRuleKinds: ['email'] });
    expect((await exportableIds(harness.arena.store)).sort()).toEqual([duelIds[0], duelIds[2], duelIds[3]].sort());
    // Without an annotation model here, the topics compar:IA gave stay.
    expect((await harness.arena.store.annotations.find(duelIds[0]!))?.categories).toEqual(rowsOf('conversations')[0]!.categories);
    // Importing the same file again leaves this arena's screening as it is.
    expect((await importer().importFiles({ conversations }))[0]).toMatchObject({ inserted: 0, updated: 0, present: 4 });
    expect(await harness.arena.store.annotations.find(duelIds[0]!)).toMatchObject({ status: 'done', containsPii: false });
    expect((await exportableIds(harness.arena.store)).sort()).toEqual([duelIds[0], duelIds[2], duelIds[3]].sort());
  });

  it('takes compar:IA’s screening as this arena’s with trustSource: published at once, the e-mail one included', async () => {
    await importer().importFiles({ conversations: conversationsWithEmail() }, { trustSource: true });
    expect(await harness.arena.store.annotations.find(duelIds[1]!)).toMatchObject({ status: 'done', containsPii: false });
    expect((await exportableIds(harness.arena.store)).sort()).toEqual([...duelIds].sort());
  });
});
