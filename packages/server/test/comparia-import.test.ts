import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type StoreLocation } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { createStore, type Store } from '../src/db/unit-of-work';
import { ComparIaImportService, type ComparIaFiles } from '../src/services/comparia-import.service';
import { importedDuelId } from '../src/adapters/comparia-ids';
import { runAgora } from './run-agora';
import { databaseUrl, dumpStore } from './store-dump';
import { DIALECTS, type TestStore } from './test-db';

const fixtures = fileURLToPath(new URL('./fixtures/comparia/', import.meta.url));
const directory = mkdtempSync(join(tmpdir(), 'agora-comparia-'));
const filesOf = (extension: string): ComparIaFiles => ({
  conversations: `${fixtures}conversations.${extension}`,
  votes: `${fixtures}votes.${extension}`,
  reactions: `${fixtures}reactions.${extension}`,
});

async function openTestStore(location: StoreLocation): Promise<Store> {
  const db = openDatabase(location);
  await migrateToLatest(db);
  return createStore(db);
}

const lines = (name: string) => readFileSync(`${fixtures}${name}.jsonl`, 'utf8').trimEnd().split('\n');

for (const dialect of DIALECTS) {
  describe(`agora import comparia (${dialect.name})`, () => {
    // The fixture files imported from JSON Lines, which the later tests compare with or read; each test
    // that imports into a store of its own stands alone, in any order.
    let jsonlStore: TestStore;
    let mappingStore: TestStore;
    let parquetStore: TestStore;

    beforeAll(async () => {
      [jsonlStore, mappingStore, parquetStore] = await Promise.all([dialect.create(), dialect.create(), dialect.create()]);
      const store = await openTestStore(jsonlStore.location);
      try {
        await new ComparIaImportService(store).importFiles(filesOf('jsonl'), { batchSize: 2, trustSource: true });
      } finally {
        await store.close();
      }
    });
    afterAll(async () => {
      await Promise.all([jsonlStore.drop(), mappingStore.drop(), parquetStore.drop()]);
    });

    it('maps conversations, votes and reactions onto duels, turns, sides, votes, reactions and annotations', async () => {
      const store = await openTestStore(mappingStore.location);
      try {
        const summaries = await new ComparIaImportService(store).importFiles(filesOf('jsonl'), { batchSize: 2, trustSource: true });
        expect(
          summaries.map(({ dataset, read, inserted, updated, present, skipped, conversationsCreated }) => ({
            dataset,
            read,
            inserted,
            updated,
            present,
            skipped,
            conversationsCreated,
          })),
        ).toEqual([
          { dataset: 'conversations', read: 4, inserted: 4, updated: 0, present: 0, skipped: {}, conversationsCreated: 0 },
          { dataset: 'votes', read: 5, inserted: 4, updated: 0, present: 0, skipped: { 'no outcome': 1 }, conversationsCreated: 1 },
          {
            dataset: 'reactions',
            read: 5,
            inserted: 4,
            updated: 0,
            present: 0,
            skipped: { 'no like or dislike': 1 },
            conversationsCreated: 1,
          },
        ]);
      } finally {
        await store.close();
      }
      const dump = await dumpStore(mappingStore.location);
      const duel = (pair: string) => dump.duels!.find((row) => row.external_id === pair)!;
      // p6 was only in a vote row without an outcome: nothing of it is stored
      expect(dump.duels!.map((row) => row.external_id).sort()).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p7']);
      expect(duel('p1')).toMatchObject({
        id: importedDuelId('p1'),
        source: 'comparia',
        status: 'voted',
        mode: 'random',
        model_a: 'mistral-large',
        model_b: 'llama-3-70b',
        visitor_hash: 'b7d1c0ffee',
        turn_count: 2,
        created_at: '2025-03-01T10:00:00.123Z',
      });
      expect(JSON.parse(duel('p1').source_meta as string)).toEqual({
        id: '100',
        model_pair_name: ['llama-3-70b', 'mistral-large'],
        conv_a_id: 'ca1',
        conv_b_id: 'cb1',
        session_hash: 's1',
        system_prompt_a: 'Tu es un assistant utile. Réponds en français.',
        system_prompt_b: 'Tu es un assistant utile. Réponds en français.',
      });
      // null visitor id, custom selection; an unvoted conversation is a finished, unvoted duel
      expect(duel('p2')).toMatchObject({ visitor_hash: '', mode: 'custom', chosen_models: '["gemma-2-9b"]', status: 'voted' });
      expect(duel('p4')).toMatchObject({ status: 'ready', mode: 'small-models' });
      // created from its vote row (no mode there) and from its reaction row
      expect(duel('p5')).toMatchObject({ status: 'voted', mode: 'random', created_at: '2025-03-05T17:47:10.010Z' });
      expect(duel('p7')).toMatchObject({ status: 'ready', turn_count: 1 });
      expect(JSON.parse(duel('p7').source_meta as string)).toMatchObject({
        system_prompt_a: 'Tu es un assistant utile. Réponds en français.',
        system_prompt_b: 'Tu es un assistant utile. Réponds en français.',
      });

      const p1 = importedDuelId('p1');
      expect(dump.turns!.filter((row) => row.duel_id === p1).map((row) => [row.turn, row.prompt, row.status])).toEqual([
        [1, 'Quelle est la capitale de la France ?', 'complete'],
        [2, 'Et de l’Italie ?', 'complete'],
      ]);
      const side = dump.turn_sides!.find((row) => row.duel_id === p1 && row.turn === 1 && row.side === 'b')!;
      expect(side).toMatchObject({
        model_id: 'llama-3-70b',
        text: 'La capitale de la France est **Paris**.',
        reasoning: 'Question simple.',
        output_tokens: 12,
        duration_ms: 1500,
        status: 'complete',
      });
      expect(JSON.parse(side.source_meta as string)).toEqual({
        metadata: { generation_id: 'gen-39-12', output_tokens: 12, duration: 1.5 },
      });

      const vote = (pair: string) => dump.votes!.find((row) => row.duel_id === importedDuelId(pair))!;
      expect(vote('p1')).toMatchObject({
        choice: 'a',
        tags_a: '["useful","complete"]',
        tags_b: '["superficial"]',
        comment_a: '',
        comment_b: 'trop long',
        mode: 'random',
        created_at: '2025-03-01T10:05:00.123Z',
      });
      // style summed over the side's answers (one bold in side b); tokens from the messages' metadata
      expect(JSON.parse(vote('p1').style_b as string)).toMatchObject({ headers: 0, lists: 0, bold: 1 });
      expect([vote('p1').tokens_a, vote('p1').tokens_b]).toEqual([6, 17]);
      expect(JSON.parse(vote('p1').source_meta as string)).toMatchObject({ id: '1', session_hash: 's1', is_unedited_prompt: false });
      expect(vote('p2')).toMatchObject({ choice: 'tie', comment_a: null, mode: 'custom' });
      expect(vote('p3')).toMatchObject({ choice: 'b', tags_b: '["useful","clear_formatting"]' });
      // null tag columns: no tags
      expect(vote('p5')).toMatchObject({ choice: 'b', tags_a: '[]', tags_b: '["complete"]' });

      const reaction = (pair: string, turn: number, side: string) =>
        dump.reactions!.find((row) => row.duel_id === importedDuelId(pair) && row.turn === turn && row.side === side);
      // msg_index 4 counts the system message: the second answer
      expect(reaction('p1', 2, 'a')).toMatchObject({
        value: 'like',
        tags: '["useful"]',
        model_id: 'mistral-large',
        comment: null,
        created_at: '2025-03-01T10:02:00.123Z',
      });
      expect(reaction('p1', 1, 'b')).toMatchObject({
        value: 'dislike',
        tags: '["incorrect","superficial"]',
        comment: 'La question était simple.',
      });
      expect(JSON.parse(reaction('p1', 1, 'b')!.source_meta as string)).toMatchObject({
        id: '12',
        question_id: 'p1-0',
        refers_to_conv_id: 'cb1',
      });
      expect(reaction('p3', 1, 'a')).toMatchObject({ value: 'dislike', comment: '' });
      expect(reaction('p7', 1, 'b')).toMatchObject({ value: 'dislike', model_id: 'mistral-large' });
      expect(dump.reactions).toHaveLength(4);

      expect(
        [...dump.conversation_annotations!]
          .sort((left, right) => (String(left.duel_id) < String(right.duel_id) ? -1 : 1))
          .map((row) => [
            row.duel_id,
            row.status,
            row.contains_pii,
            row.model_status,
            row.model_id,
            row.languages,
            row.categories,
            row.keywords,
            row.short_summary,
          ]),
      ).toEqual(
        [
          [
            importedDuelId('p1'),
            'done',
            0,
            'done',
            'comparia',
            '["fr"]',
            '["Géographie"]',
            '["capitale","France","Italie"]',
            'Capitales européennes.',
          ],
          [importedDuelId('p2'), 'done', 0, 'done', 'comparia', null, null, null, null],
          [
            importedDuelId('p3'),
            'done',
            0,
            'done',
            'comparia',
            '["en","es"]',
            '["Langues"]',
            '["traduction"]',
            'Traduction vers l’espagnol.',
          ],
          [importedDuelId('p4'), 'done', 0, 'done', 'comparia', '["fr"]', '["Mathématiques"]', '["addition"]', 'Une addition.'],
        ].sort((left, right) => (String(left[0]) < String(right[0]) ? -1 : 1)),
      );
    });

    it('stores exactly the same rows from the Parquet files (nested messages, bigints, Date timestamps)', async () => {
      const store = await openTestStore(parquetStore.location);
      try {
        await new ComparIaImportService(store).importFiles(filesOf('parquet'), { trustSource: true });
      } finally {
        await store.close();
      }
      expect(await dumpStore(parquetStore.location)).toEqual(await dumpStore(jsonlStore.location));
    });

    it('stores the same rows from Parquet files DuckDB wrote in every codec compar:IA and Hugging Face use', async () => {
      const expected = await dumpStore(jsonlStore.location);
      const duckdb = await DuckDBInstance.create(':memory:');
      const connection = await duckdb.connect();
      try {
        for (const codec of ['zstd', 'lz4', 'snappy', 'gzip'] as const) {
          const files: ComparIaFiles = {};
          for (const dataset of ['conversations', 'votes', 'reactions'] as const) {
            files[dataset] = join(directory, `${dialect.name}-${dataset}.${codec}.parquet`);
            // Another writer than the project's own, in compar:IA's column layout (the fixture's).
            await connection.run(
              `COPY (SELECT * FROM read_parquet('${fixtures}${dataset}.parquet')) TO '${files[dataset]}' (FORMAT parquet, COMPRESSION ${codec})`,
            );
            const codecs = await connection.runAndReadAll(
              `SELECT DISTINCT compression FROM parquet_metadata('${files[dataset]}') WHERE compression <> 'UNCOMPRESSED'`,
            );
            expect(codecs.getRows().flat()).toEqual([{ zstd: 'ZSTD', lz4: 'LZ4_RAW', snappy: 'SNAPPY', gzip: 'GZIP' }[codec]]);
          }
          const target = await dialect.create();
          try {
            const store = await openTestStore(target.location);
            try {
              await new ComparIaImportService(store).importFiles(files, { trustSource: true });
            } finally {
              await store.close();
            }
            expect(await dumpStore(target.location), codec).toEqual(expected);
          } finally {
            await target.drop();
          }
        }
      } finally {
        connection.closeSync();
        duckdb.closeSync();
      }
    }, 60_000);

    it('joins votes and reactions that carry no text to the conversation they name, as compar:IA’s files may leave it to the conversations file', async () => {
      const target = await dialect.create();
      const withoutText = (dataset: 'votes' | 'reactions') => {
        const path = join(directory, `${dialect.name}-${dataset}-without-text.jsonl`);
        const rows = lines(dataset).map((line) => {
          const { conversation_a: _a, conversation_b: _b, ...rest } = JSON.parse(line) as Record<string, unknown>;
          return JSON.stringify(rest);
        });
        // A vote naming a conversation no file brought: left out, and said why.
        if (dataset === 'votes') rows.push(JSON.stringify({ ...JSON.parse(rows[0]!), id: 999, conversation_pair_id: 'never-imported' }));
        writeFileSync(path, `${rows.join('\n')}\n`);
        return path;
      };
      const store = await openTestStore(target.location);
      try {
        const summaries = await new ComparIaImportService(store).importFiles(
          { conversations: `${fixtures}conversations.jsonl`, votes: withoutText('votes'), reactions: withoutText('reactions') },
          { batchSize: 2, trustSource: true },
        );
        // Two fixture votes and one reaction name conversations only the votes file carried (with their text), and one vote names none.
        const unknown = 'no messages, and no imported conversation of its id';
        expect(summaries.map((summary) => summary.skipped)).toEqual([{}, { [unknown]: 3 }, { [unknown]: 1, 'no like or dislike': 1 }]);
      } finally {
        await store.close();
      }
      // On the conversations of the conversations file: the same duels, votes and reactions as from the files with text.
      const conversations = new Set(
        lines('conversations').map((line) =>
          importedDuelId(String((JSON.parse(line) as { conversation_pair_id: string }).conversation_pair_id)),
        ),
      );
      const joined = await dumpStore(target.location);
      const full = await dumpStore(jsonlStore.location);
      // A vote's token counts come from the conversation it joined, whose file carries compar:IA's token totals (the
      // votes file's own copy of the conversation does not): they may differ, everything else is the same.
      const ofConversations = (rows: Record<string, unknown>[]) =>
        rows.filter((row) => conversations.has(String(row.duel_id ?? row.id))).map(({ tokens_a: _a, tokens_b: _b, ...row }) => row);
      for (const table of ['votes', 'reactions', 'duels', 'turns', 'turn_sides']) {
        expect(ofConversations(joined[table]!).length, table).toBeGreaterThan(0);
        expect(ofConversations(joined[table]!), table).toEqual(ofConversations(full[table]!));
      }
      await target.drop();
    });

    it('imports compar:IA’s per-response arena data: one duel per comparison, a verdict per judged turn with its response_id, and nothing again on a second run', async () => {
      const target = await dialect.create();
      const store = await openTestStore(target.location);
      try {
        const arena = { arena: `${fixtures}arena.jsonl` };
        const [first] = await new ComparIaImportService(store).importFiles(arena, { batchSize: 2, trustSource: true });
        // Three verdicts and one turn without: four rows, each new; the two-turn conversation is one duel.
        expect(first).toMatchObject({ dataset: 'arena', read: 4, inserted: 4, updated: 0, present: 0, skipped: {} });
        const duels = ['cmp-1', 'cmp-2', 'cmp-3'].map((id) => importedDuelId(id));
        const verdicts = await store.comparIaImport.findTurnVerdicts(duels);
        expect([...verdicts.values()].map(({ duelId, turn, choice, sourceId }) => [duels.indexOf(duelId), turn, choice, sourceId])).toEqual(
          expect.arrayContaining([
            [0, 1, 'a', 'resp-c1-0'],
            [0, 2, 'both_bad', 'resp-c1-1'],
            [1, 1, 'b', 'resp-c2-0'],
          ]),
        );
        expect(verdicts.size).toBe(3);
        const stored = await store.comparIaImport.loadImportedDuels([
          ...(await store.comparIaImport.findDuels('comparia', ['cmp-1', 'cmp-2', 'cmp-3'])).values(),
        ]);
        expect(stored.get(duels[0]!)!.turns.map((turn) => [turn.prompt, turn.sides[0].text, turn.sides[1].text])).toEqual([
          ['Quelle est la plus haute montagne d’Europe ?', 'Le mont Elbrouz, dans le Caucase, culmine à 5 642 m.', 'C’est le mont Blanc.'],
          ['Et en Europe occidentale ?', 'Le mont Blanc, 4 806 m environ.', 'Le Cervin.'],
        ]);
        expect(await store.annotations.find(duels[0]!)).toMatchObject({ status: 'done', languages: ['fr'], categories: ['Éducation'] });
        const [again] = await new ComparIaImportService(store).importFiles(arena, { trustSource: true });
        expect(again).toMatchObject({ read: 4, inserted: 0, updated: 0, present: 4 });
      } finally {
        await store.close();
        await target.drop();
      }
    });

    it('screens imported conversations as the arena’s own: none is exported before post-processing, one naming a person’s e-mail never; --trust-source takes compar:IA’s screening', async () => {
      const [screened, trusted] = await Promise.all([dialect.create(), dialect.create()]);
      // The second conversation's prompt gives an e-mail address: compar:IA published it as screened.
      const rows = lines('conversations').map((line, index) => {
        const row = JSON.parse(line) as Record<string, unknown>;
        if (index !== 1) return line;
        const withEmail = (messages: { role: string; content: string }[]) =>
          messages.map((message) =>
            message.role === 'user' ? { ...message, content: `${message.content} Écrivez-moi à jeanne.martin@orange.fr` } : message,
          );
        return JSON.stringify({
          ...row,
          conversation_a: withEmail(row.conversation_a as { role: string; content: string }[]),
          conversation_b: withEmail(row.conversation_b as { role: string; content: string }[]),
        });
      });
      const path = join(directory, `${dialect.name}-conversations-with-email.jsonl`);
      writeFileSync(path, `${rows.join('\n')}\n`);
      const exportable = async (target: TestStore) => {
        const store = await openTestStore(target.location);
        try {
          const ids: string[] = [];
          for await (const batch of store.datasets.exportableConversations({ privateCohorts: [], batchSize: 100 }))
            ids.push(...batch.map((conversation) => conversation.externalId ?? ''));
          return ids.sort();
        } finally {
          await store.close();
        }
      };
      const run = async (target: TestStore, flags: string[]) => {
        const outcome = await runAgora(['import', 'comparia', '--conversations', path, ...flags], '', {
          DATABASE_URL: databaseUrl(target.location),
        });
        expect(outcome.code, outcome.stderr).toBe(0);
      };
      try {
        await run(screened, []);
        expect(await exportable(screened)).toEqual([]);
        const rulesOnly = await runAgora(['postprocess', '--no-model'], '', { DATABASE_URL: databaseUrl(screened.location) });
        expect(rulesOnly.code, rulesOnly.stderr).toBe(0);
        expect(await exportable(screened)).toEqual(['p1', 'p3', 'p4']);
        // compar:IA's topics stay when no annotation model wrote its own.
        const store = await openTestStore(screened.location);
        try {
          expect((await store.annotations.find(importedDuelId('p1')))?.categories).toEqual(
            (JSON.parse(lines('conversations')[0]!) as { categories: string[] }).categories,
          );
        } finally {
          await store.close();
        }
        await run(trusted, ['--trust-source']);
        expect(await exportable(trusted)).toEqual(['p1', 'p2', 'p3', 'p4']);
      } finally {
        await Promise.all([screened.drop(), trusted.drop()]);
      }
    }, 60_000);

    it('adds nothing when run again, from either format, gzipped or not', async () => {
      const before = await dumpStore(jsonlStore.location);
      const gzipped: ComparIaFiles = {};
      for (const dataset of ['conversations', 'votes', 'reactions'] as const) {
        gzipped[dataset] = join(directory, `${dialect.name}-${dataset}.jsonl.gz`);
        writeFileSync(gzipped[dataset], gzipSync(readFileSync(`${fixtures}${dataset}.jsonl`)));
      }
      for (const files of [filesOf('jsonl'), filesOf('parquet'), gzipped]) {
        const store = await openTestStore(jsonlStore.location);
        try {
          const summaries = await new ComparIaImportService(store).importFiles(files, { trustSource: true });
          expect(summaries.map((summary) => [summary.inserted, summary.updated, summary.present, summary.conversationsCreated])).toEqual([
            [0, 0, 4, 0],
            [0, 0, 4, 0],
            [0, 0, 4, 0],
          ]);
        } finally {
          await store.close();
        }
      }
      expect(await dumpStore(jsonlStore.location)).toEqual(before);
    });

    it('rewrites rows that changed (a duel keeps its status), skips a second vote on a pair, and fills in a conversation first seen in a vote', async () => {
      const fresh = await dialect.create();
      try {
        const write = (name: string, rows: Record<string, unknown>[]) => {
          const path = join(directory, `${dialect.name}-${name}.jsonl`);
          writeFileSync(path, rows.map((row) => JSON.stringify(row)).join('\n'));
          return path;
        };
        const read = (dataset: string) =>
          readFileSync(`${fixtures}${dataset}.jsonl`, 'utf8')
            .trim()
            .split('\n')
            .map((line) => JSON.parse(line) as Record<string, unknown>);
        const [conversations, votes, reactions] = [read('conversations'), read('votes'), read('reactions')];
        const run = async (files: ComparIaFiles) => {
          const store = await openTestStore(fresh.location);
          try {
            return (await new ComparIaImportService(store).importFiles(files, { trustSource: true })).map((summary) => [
              summary.dataset,
              summary.inserted,
              summary.updated,
              summary.present,
              summary.skipped,
              summary.conversationsCreated,
            ]);
          } finally {
            await store.close();
          }
        };
        // the vote first: its conversation is created from the vote row, then the conversations file completes it
        expect(await run({ votes: write('vote-p1', [votes[0]!]) })).toEqual([['votes', 1, 0, 0, {}, 1]]);
        expect(await run({ conversations: write('conversations', conversations) })).toEqual([['conversations', 3, 1, 0, {}, 0]]);
        let dump = await dumpStore(fresh.location);
        const p1 = () => dump.duels!.find((row) => row.external_id === 'p1')!;
        expect(p1()).toMatchObject({ status: 'voted', mode: 'random' });
        expect(JSON.parse(p1().source_meta as string)).toMatchObject({ id: '100', conv_a_id: 'ca1' });
        expect(dump.conversation_annotations).toHaveLength(4);

        // a conversation row with other values; another vote on the same pair; a changed reaction
        const changed = { ...conversations[0]!, mode: 'big-vs-small' };
        const secondVote = { ...votes[0]!, id: 99, chosen_model_name: votes[0]!.model_b_name };
        const changedReaction = { ...reactions[0]!, liked: false, disliked: true };
        expect(
          await run({
            conversations: write('changed', [changed]),
            votes: write('second-vote', [secondVote]),
            reactions: write('reactions', reactions),
          }),
        ).toEqual([
          ['conversations', 0, 1, 0, {}, 0],
          ['votes', 0, 0, 0, { 'another vote for this conversation': 1 }, 0],
          ['reactions', 4, 0, 0, { 'no like or dislike': 1 }, 1],
        ]);
        expect(await run({ reactions: write('changed-reaction', [changedReaction]) })).toEqual([['reactions', 0, 1, 0, {}, 0]]);
        // Only the topics change: the duel is the same, but the live leaderboard must read every vote again.
        const epoch = async () => {
          const store = await openTestStore(fresh.location);
          try {
            return await store.feedback.rankingEpoch();
          } finally {
            await store.close();
          }
        };
        const before = await epoch();
        expect(await run({ conversations: write('changed-topics', [{ ...changed, categories: ['Law & Justice & Government'] }]) })).toEqual(
          [['conversations', 0, 0, 1, {}, 0]],
        );
        expect(await epoch()).toBe(before + 1);
        expect(await run({ conversations: write('changed-topics', [{ ...changed, categories: ['Law & Justice & Government'] }]) })).toEqual(
          [['conversations', 0, 0, 1, {}, 0]],
        );
        expect(await epoch()).toBe(before + 1);
        dump = await dumpStore(fresh.location);
        expect(p1()).toMatchObject({ status: 'voted', mode: 'big-vs-small' });
        expect(dump.votes!.find((row) => row.duel_id === importedDuelId('p1'))).toMatchObject({ choice: 'a', mode: 'big-vs-small' });
        expect(dump.reactions!.find((row) => row.duel_id === importedDuelId('p1') && row.turn === 2)).toMatchObject({ value: 'dislike' });
      } finally {
        await fresh.drop();
      }
    });

    it('ranks the imported votes with `agora leaderboard` (store mode)', async () => {
      const outcome = await runAgora(['leaderboard', '--format', 'json'], '', { DATABASE_URL: databaseUrl(jsonlStore.location) });
      expect(outcome.stderr).toBe('');
      expect(outcome.code).toBe(0);
      const board = JSON.parse(outcome.stdout) as { n_votes: number; models: { model: string; n_battles: number }[] };
      expect(board.n_votes).toBe(4);
      expect(Object.fromEntries(board.models.map((row) => [row.model, row.n_battles]))).toEqual({
        'mistral-large': 3,
        'llama-3-70b': 2,
        'qwen-2.5-7b': 2,
        'gemma-2-9b': 1,
      });
      // the votes carry the style counts of their answers, as the arena's do
      const styled = await runAgora(['leaderboard', '--style', '--format', 'json'], '', { DATABASE_URL: databaseUrl(jsonlStore.location) });
      expect(styled.code).toBe(0);
      expect((JSON.parse(styled.stdout) as { variant: string; n_votes_used: number }).variant).toBe('style_fastchat');
    }, 60_000);
  });
}

describe('agora import comparia: bad input', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await DIALECTS[DIALECTS.length - 1]!.create();
  });
  afterAll(async () => {
    await store.drop();
  });

  it('stops at a bad row with exit 2, naming the file and line; the rows of its batch are not written', async () => {
    const votes = lines('votes');
    const broken = JSON.parse(votes[2]!) as Record<string, unknown>;
    broken.chosen_model_name = 'someone-else';
    const path = join(directory, 'bad-votes.jsonl');
    writeFileSync(path, [votes[0], votes[1], JSON.stringify(broken), votes[3]].join('\n'));
    const environment = { DATABASE_URL: databaseUrl(store.location) };
    const outcome = await runAgora(['import', 'comparia', '--votes', path], '', environment);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toContain(
      `${path}, line 3: chosen_model_name "someone-else" is neither model_a_name (llama-3-70b) nor model_b_name (qwen-2.5-7b)`,
    );
    expect(outcome.stdout).toBe('');
    const dump = await dumpStore(store.location);
    expect(dump.duels).toEqual([]);
    expect(dump.votes).toEqual([]);
  }, 60_000);

  it('names the line of invalid JSON, a bad conversation, a bad msg_index; and refuses a run without files', async () => {
    const environment = { DATABASE_URL: databaseUrl(store.location) };
    const conversations = lines('conversations');
    const badMessages = JSON.parse(conversations[1]!) as Record<string, unknown>;
    badMessages.conversation_b = [{ role: 'assistant', content: 'hello' }];
    const reactions = lines('reactions');
    const badIndex = JSON.parse(reactions[0]!) as Record<string, unknown>;
    badIndex.msg_index = 9;
    badIndex.msg_rank = 7;
    const cases: [string, string, string, string][] = [
      ['--conversations', 'truncated.jsonl', `${conversations[0]}\n{"id": 3,`, 'line 2: invalid JSON'],
      [
        '--conversations',
        'bad-messages.jsonl',
        `${conversations[0]}\n${JSON.stringify(badMessages)}`,
        'line 2: conversation_b[0] is a assistant message where a user message was expected',
      ],
      [
        '--reactions',
        'bad-index.jsonl',
        JSON.stringify(badIndex),
        'line 1: msg_index 9 (msg_rank 7) is not an answer of conversation_a (2 turns)',
      ],
    ];
    for (const [flag, name, content, message] of cases) {
      const path = join(directory, name);
      writeFileSync(path, content);
      const outcome = await runAgora(['import', 'comparia', flag, path], '', environment);
      expect(outcome.code, name).toBe(2);
      expect(outcome.stderr, name).toContain(`${path}, ${message}`);
    }
    const none = await runAgora(['import', 'comparia'], '', environment);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('give at least one of --conversations, --votes, --reactions');
    const missing = await runAgora(['import', 'comparia', '--votes', join(directory, 'nope.parquet')], '', environment);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope.parquet: cannot open (ENOENT)');
  }, 120_000);
});
