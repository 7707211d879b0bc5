import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import { type Store, createStore } from '../src/db/unit-of-work';
import { DatasetExportService, type DatasetExportRequest } from '../src/services/dataset-export.service';
import type { ExportableConversation } from '../src/db/repositories/dataset.repository';
import { DATASET_NAMES, type DatasetName } from '../src/domain/datasets/export-columns';
import { type DatasetTier, TIERS_OF, tierColumns, tierFolder } from '../src/domain/datasets/dataset-tiers';
import { exportModelFacts } from '../src/domain/datasets/export-model-facts';
import { DIALECTS, type TestStore } from './test-db';
import { type Seed, catalogue, duelId, seed, visitorHash } from './export-seeds';
import { startTestArena } from './test-arena';
import { cardHeader, filesUnder, readJsonl, readParquetRows, subsetJsonl, subsetRows } from './export-files';

const SEEDS: Seed[] = [
  {
    name: 'clean voted',
    prompts: ['clean voted', 'and then?'],
    vote: { choice: 'a', tagsA: ['useful'], tagsB: ['incorrect'] },
    reactions: [
      { turn: 1, side: 'b', value: 'dislike', tags: ['superficial'] },
      { turn: 2, side: 'a', value: 'like' },
    ],
    verdicts: [
      { turn: 1, choice: 'b' },
      { turn: 2, choice: 'both_bad' },
    ],
    at: '2026-11-01T10:00:00.000Z',
  },
  {
    name: 'flagged',
    pii: true,
    vote: { choice: 'a' },
    reactions: [{ turn: 1, side: 'a', value: 'like' }],
    verdicts: [{ turn: 1, choice: 'a' }],
    at: '2026-11-01T11:00:00.000Z',
  },
  { name: 'screening failed', annotation: 'failed', vote: { choice: 'b' }, at: '2026-11-01T12:00:00.000Z' },
  { name: 'never screened', annotation: 'none', vote: { choice: 'b' }, at: '2026-11-01T13:00:00.000Z' },
  { name: 'screening pending', annotation: 'pending', at: '2026-11-01T13:30:00.000Z' },
  {
    name: 'reported not reviewed',
    report: true,
    vote: { choice: 'a' },
    reactions: [{ turn: 1, side: 'a', value: 'like' }],
    at: '2026-11-01T14:00:00.000Z',
  },
  { name: 'reviewer excluded', decision: 'exclude', vote: { choice: 'a' }, at: '2026-11-01T15:00:00.000Z' },
  {
    name: 'reviewer included false positive',
    pii: true,
    report: true,
    decision: 'include',
    vote: { choice: 'tie' },
    at: '2026-11-01T16:00:00.000Z',
  },
  { name: 'private cohort', cohort: 'school-2026', vote: { choice: 'a' }, at: '2026-11-01T17:00:00.000Z' },
  {
    name: 'public cohort',
    cohort: 'open-day',
    vote: { choice: 'both_bad' },
    reactions: [{ turn: 1, side: 'a', value: 'like' }],
    at: '2026-11-02T09:00:00.000Z',
  },
  {
    name: 'second turn failed',
    prompts: ['second turn failed', 'one more'],
    failFrom: 2,
    reactions: [{ turn: 2, side: 'a', value: 'like' }],
    // The failed turn's verdict is never exported (the API refuses it; a store may still hold one).
    verdicts: [
      { turn: 1, choice: 'a' },
      { turn: 2, choice: 'b' },
    ],
    at: '2026-11-02T10:00:00.000Z',
  },
  { name: 'only turn failed', failFrom: 1, at: '2026-11-02T11:00:00.000Z' },
  {
    name: 'grew after screening',
    prompts: ['grew after screening', 'not screened yet'],
    turnsAnnotated: 1,
    vote: { choice: 'b' },
    at: '2026-11-02T12:00:00.000Z',
  },
  {
    name: 'occitan cooking',
    languages: ['oc', 'fr'],
    categories: ['cooking'],
    vote: { choice: 'b', tagsB: ['useful', 'complete'], tagsA: ['superficial'] },
    verdicts: [{ turn: 1, choice: 'both_good' }],
    at: '2026-11-03T08:00:00.000Z',
  },
  {
    name: 'proprietary model',
    models: ['kestrix-8b', 'sollary-32b'],
    vote: { choice: 'a' },
    verdicts: [{ turn: 1, choice: 'b' }],
    at: '2026-11-03T09:00:00.000Z',
  },
];

const EXPORTED = [
  'clean voted',
  'reviewer included false positive',
  'public cohort',
  'second turn failed',
  'grew after screening',
  'occitan cooking',
  'proprietary model',
];

/** Seeds in the order of the language folders: French ones, then the Occitan one. */
const byLanguageFolder = (names: readonly string[]): string[] => [
  ...names.filter((name) => name !== 'occitan cooking'),
  ...names.filter((name) => name === 'occitan cooking'),
];

describe.each(DIALECTS)('agora export on $name', (dialect) => {
  let testStore: TestStore;
  let store: Store;
  let service: DatasetExportService;
  const folders: string[] = [];
  const outDir = () => {
    const folder = mkdtempSync(join(tmpdir(), 'agora-export-'));
    folders.push(folder);
    return folder;
  };
  const run = (request: Partial<DatasetExportRequest> = {}) =>
    service.export({ outDir: request.outDir ?? outDir(), formats: ['parquet', 'jsonl'], datasets: [...DATASET_NAMES], ...request });

  beforeAll(async () => {
    testStore = await dialect.create();
    const db = openDatabase(testStore.location);
    await migrateToLatest(db);
    store = createStore(db);
    await seed(store, testStore.location, SEEDS);
    const facts = exportModelFacts(catalogue(), { method: '0.9.1', zone: undefined });
    // Small batches and row groups so that paging and several row groups are exercised.
    service = new DatasetExportService(
      store.datasets,
      facts,
      { privateCohorts: ['school-2026', 'pilot'], batchSize: 3, rowGroupRows: 2 },
      () => new Date('2026-11-30T08:00:00.000Z'),
    );
  });

  afterAll(async () => {
    await store?.close();
    await testStore?.drop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('exports exactly the conversations the privacy rules let through, in time order, with only their complete screened turns', async () => {
    const out = outDir();
    const result = await run({ outDir: out });
    const conversations = await subsetRows(out, 'conversations');
    expect(conversations.map((row) => row.opening_msg)).toEqual(byLanguageFolder(EXPORTED));
    const byName = new Map(conversations.map((row) => [row.opening_msg as string, row]));
    expect(byName.get('second turn failed')!.conv_turns).toBe(1n);
    expect(byName.get('grew after screening')!.conv_turns).toBe(1n);
    expect(byName.get('clean voted')!.conv_turns).toBe(2n);
    // Answers keep their reasoning and metadata, as compar:IA's messages do (duration in seconds).
    expect(byName.get('second turn failed')!.conversation_b).toEqual([
      { role: 'user', content: 'second turn failed', reasoning_content: null, metadata: null },
      {
        role: 'assistant',
        content: 'answer b to second turn failed',
        reasoning_content: null,
        metadata: { generation_id: null, output_tokens: 100n, duration: 0.1 },
      },
    ]);
    // The catalogue gives zephyrine a system prompt: compar:IA puts the system message first.
    expect(byName.get('clean voted')!.conversation_a.slice(0, 3)).toEqual([
      { role: 'system', content: 'You are a helpful assistant.', reasoning_content: null, metadata: null },
      { role: 'user', content: 'clean voted', reasoning_content: null, metadata: null },
      {
        role: 'assistant',
        content: 'answer a to clean voted',
        reasoning_content: 'reasoning a to clean voted',
        metadata: { generation_id: null, output_tokens: 100n, duration: 0.1 },
      },
    ]);
    expect(byName.get('clean voted')!).toMatchObject({
      system_prompt_a: 'You are a helpful assistant.',
      system_prompt_b: null,
      total_conv_a_output_tokens: 300n,
      model_a_total_params: 405,
      source: 'arena',
      languages: ['fr'],
      categories: ['science'],
    });
    expect(byName.get('clean voted')!.total_conv_a_kwh).toBeGreaterThan(0);
    expect(result.conversationsRead).toBe(EXPORTED.length);
  });

  it('exports votes and reactions only of exported conversations, and only on exported turns', async () => {
    const folder = outDir();
    await run({ outDir: folder });
    const votes = await subsetRows(folder, 'votes');
    expect(votes.map((row) => row.opening_msg)).toEqual([
      'clean voted',
      'reviewer included false positive',
      'public cohort',
      'grew after screening',
      'proprietary model',
      'occitan cooking',
    ]);
    const tie = votes.find((row) => row.opening_msg === 'reviewer included false positive')!;
    expect(tie).toMatchObject({ chosen_model_name: null, both_equal: true, both_bad: false });
    expect(votes.find((row) => row.opening_msg === 'public cohort')).toMatchObject({
      chosen_model_name: null,
      both_equal: false,
      both_bad: true,
    });
    expect(votes[0]).toMatchObject({
      chosen_model_name: 'zephyrine-405b',
      conv_useful_a: true,
      conv_incorrect_b: true,
      conv_useful_b: false,
      conv_comments_b: 'comment on clean voted',
    });
    const reactions = await subsetRows(folder, 'reactions');
    expect(reactions.map((row) => [row.opening_msg, row.msg_rank, row.model_pos])).toEqual([
      ['clean voted', 0n, 'b'],
      ['clean voted', 1n, 'a'],
      ['public cohort', 0n, 'a'],
    ]);
    // Side a has a system prompt: msg_index counts it, as compar:IA's does.
    expect(reactions[1]).toMatchObject({
      msg_index: 4n,
      liked: true,
      disliked: false,
      question_content: 'and then?',
      response_content: 'answer a to and then?',
      system_prompt: 'You are a helpful assistant.',
    });
    expect(reactions[0]).toMatchObject({
      msg_index: 1n,
      disliked: true,
      superficial: true,
      useful: false,
      refers_to_model: 'brontal-120b',
    });
    expect(reactions[0]!.question_id).toBe(`${reactions[0]!.conversation_pair_id}-0`);
    // The three raw datasets share the conversation's public id.
    const conversations = await subsetRows(folder, 'conversations');
    expect(reactions[0]!.conversation_pair_id).toBe(conversations[0]!.conversation_pair_id);
    expect(votes[0]!.conversation_pair_id).toBe(conversations[0]!.conversation_pair_id);
  });

  it('writes a turn_verdicts row per verdict of an exported turn and a dpo_turns pair per verdict with a winner', async () => {
    const folder = outDir();
    await run({ outDir: folder });
    const conversations = await subsetRows(folder, 'conversations');
    const pairOf = (opening: string) => conversations.find((row) => row.opening_msg === opening)!.conversation_pair_id as string;
    const verdicts = await subsetRows(folder, 'turn_verdicts');
    // Not the flagged conversation's, not the failed turn's: the privacy screening and the export's turns decide, as for votes.
    expect(verdicts.map((row) => [row.conversation_pair_id, Number(row.turn), row.verdict, row.chosen_model_name]).sort()).toEqual(
      [
        [pairOf('clean voted'), 1, 'b_better', 'brontal-120b'],
        [pairOf('clean voted'), 2, 'both_bad', null],
        [pairOf('second turn failed'), 1, 'a_better', 'zephyrine-405b'],
        [pairOf('occitan cooking'), 1, 'both_good', null],
        [pairOf('proprietary model'), 1, 'b_better', 'sollary-32b'],
      ].sort(),
    );
    const second = verdicts.find((row) => Number(row.turn) === 2)!;
    expect(Number(second.msg_rank)).toBe(1);
    expect(second).toMatchObject({
      question_id: `${pairOf('clean voted')}-1`,
      question_content: 'and then?',
      model_a_name: 'zephyrine-405b',
      model_b_name: 'brontal-120b',
      source: 'arena',
    });
    expect(new Date(second.date as string).toISOString()).toMatch(/^2026-11-01T00:00:00/);
    expect(JSON.stringify(verdicts, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value))).not.toContain(
      'visitorhash',
    );
    const pairs = await subsetRows(folder, 'dpo_turns');
    expect(pairs.map((row) => [row.source_id, Number(row.turn), row.model_chosen, row.context_from]).sort()).toEqual(
      [
        // One side has a system prompt and the other none: the prompt is the chosen side's history.
        [pairOf('clean voted'), 1, 'brontal-120b', 'b'],
        [pairOf('second turn failed'), 1, 'zephyrine-405b', 'a'],
        // Neither has one: both sides saw exactly the same first turn.
        [pairOf('proprietary model'), 1, 'sollary-32b', 'shared'],
      ].sort(),
    );
    const clean = pairs.find((row) => row.source_id === pairOf('clean voted'))!;
    expect(clean.prompt).toEqual([{ role: 'user', content: 'clean voted' }]);
    expect(clean.chosen).toEqual([{ role: 'assistant', content: 'answer b to clean voted' }]);
    expect(clean.rejected).toEqual([{ role: 'assistant', content: 'answer a to clean voted' }]);
  });

  it('builds dpo, kto and reward rows with TRL shapes and the multi-turn context rule', async () => {
    const folder = outDir();
    await run({ outDir: folder });
    const dpo = await subsetRows(folder, 'dpo');
    const clean = dpo.filter((row) => row.prompt.some((message: { content: string }) => message.content === 'clean voted'));
    expect(clean).toHaveLength(2);
    expect(clean[0]).toMatchObject({
      prompt: [
        { role: 'system', content: 'You are a helpful assistant.' },
        { role: 'user', content: 'clean voted' },
      ],
      chosen: [{ role: 'assistant', content: 'answer a to clean voted' }],
      rejected: [{ role: 'assistant', content: 'answer b to clean voted' }],
      model_chosen: 'zephyrine-405b',
      model_rejected: 'brontal-120b',
      context_from: 'chosen',
      pref_strength: 'strong',
      turn: 1n,
      language: 'fr',
      categories: ['science'],
    });
    expect(clean[1]!.prompt.map((message: { content: string }) => message.content)).toEqual([
      'You are a helpful assistant.',
      'clean voted',
      'answer a to clean voted',
      'and then?',
    ]);
    expect(clean[1]).toMatchObject({ context_from: 'chosen', turn: 2n });
    const occitan = dpo.find((row) => row.prompt.at(-1).content === 'occitan cooking')!;
    expect(occitan).toMatchObject({ context_from: 'chosen', model_chosen: 'brontal-120b', language: 'oc', pref_strength: 'strong' });
    // Same system prompt (none) on both sides: the first turn is an exact pair.
    expect(dpo.find((row) => row.prompt[0].content === 'proprietary model')).toMatchObject({
      context_from: 'shared',
      model_chosen: 'kestrix-8b',
      pref_strength: 'weak',
    });
    // Ties and both-bad votes are not pairs.
    expect(dpo.some((row) => ['reviewer included false positive', 'public cohort'].includes(row.prompt.at(-1).content))).toBe(false);
    expect(dpo).toHaveLength(2 + 1 + 1 + 1);
    const reward = await subsetRows(folder, 'reward');
    expect(reward).toHaveLength(dpo.length);
    expect(reward[0]!.chosen).toEqual([...dpo[0]!.prompt, ...dpo[0]!.chosen]);
    expect(reward[0]!.rejected).toEqual([...dpo[0]!.prompt, ...dpo[0]!.rejected]);
    const kto = await subsetRows(folder, 'kto');
    // Public rows are shuffled conversation by conversation (by their public id, which the salt
    // decides); a conversation's own rows keep their order.
    const byConversation = (rows: unknown[][]) => [...rows].sort((left, right) => String(left[0]).localeCompare(String(right[0])));
    expect(byConversation(kto.map((row) => [row.source_id, row.prompt.at(-1).content, row.model, row.label, row.label_source]))).toEqual(
      byConversation(
        [
          ['clean voted', 'clean voted', 'brontal-120b', false, 'reaction'],
          ['clean voted', 'and then?', 'zephyrine-405b', true, 'reaction'],
          ['public cohort', 'public cohort', 'zephyrine-405b', true, 'reaction'],
          ['public cohort', 'public cohort', 'brontal-120b', false, 'both_bad_vote'],
        ].map(([opening, ...rest]) => [
          kto.find((row) => row.prompt[0].content === opening || row.prompt[1]?.content === opening)!.source_id,
          ...rest,
        ]),
      ),
    );
    expect(kto.find((row) => row.prompt.at(-1).content === 'clean voted')!.completion).toEqual([
      { role: 'assistant', content: 'answer b to clean voted' },
    ]);
  });

  it('says in every row and in the card what each answer may be used for, from the model licences', async () => {
    const folder = outDir();
    const result = await run({ outDir: folder });
    const expectedUse: Record<string, string> = {
      'zephyrine-405b': 'allowed',
      'miravel-24b': 'allowed',
      'brontal-120b': 'check_licence',
      'kestrix-8b': 'evaluation_only',
    };
    const useOf = (model: string) => expectedUse[model] ?? 'allowed';
    const rank = ['allowed', 'check_licence', 'evaluation_only'];
    for (const dataset of ['conversations', 'votes'] as const) {
      const rows = await subsetRows(folder, dataset);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect([row.training_use_a, row.training_use_b]).toEqual([useOf(row.model_a_name), useOf(row.model_b_name)]);
    }
    for (const row of await subsetRows(folder, 'reactions')) expect(row.training_use).toBe(useOf(row.refers_to_model));
    const pairs = await subsetRows(folder, 'dpo');
    const worst = (a: string, b: string) => (rank.indexOf(a) > rank.indexOf(b) ? a : b);
    for (const row of pairs) expect(row.training_use).toBe(worst(useOf(row.model_chosen), useOf(row.model_rejected)));
    expect(pairs.map((row) => row.training_use)).toContain('check_licence');
    for (const row of await subsetRows(folder, 'kto')) expect(row.training_use).toBe(useOf(row.model));
    for (const { path } of result.cards) {
      const card = readFileSync(path, 'utf8');
      expect(card).toContain('## Training use');
      expect(card).toContain('| `kestrix-8b` | Quorvex Proprietary | closed | `evaluation_only` |');
      expect(card).toContain('| `brontal-120b` | Apache 2.0 | open | `check_licence` |');
      expect(card).toContain('| `miravel-24b` | Apache 2.0 | open | `allowed` |');
    }
    expect(result.cards.map((card) => card.tier)).toEqual(['public', 'gated']);
  });

  it('applies the language, topic, date, licence and preference-strength filters', async () => {
    const opening = async (request: Partial<DatasetExportRequest>, dataset: 'conversations' | 'dpo' = 'conversations') => {
      const out = outDir();
      await run({ ...request, outDir: out, formats: ['jsonl'], datasets: [dataset] });
      const rows = subsetJsonl(out, dataset);
      return [...new Set(rows.map((row) => (dataset === 'dpo' ? row.source_id : row.opening_msg)))];
    };
    expect(await opening({ languages: ['oc'] })).toEqual(['occitan cooking']);
    expect(await opening({ categories: ['cooking', 'law'] })).toEqual(['occitan cooking']);
    expect(await opening({ from: '2026-11-02T00:00:00.000Z', until: '2026-11-03T00:00:00.000Z' })).toEqual([
      'public cohort',
      'second turn failed',
      'grew after screening',
    ]);
    expect(await opening({ excludeLicenses: ['quorvex proprietary'] })).not.toContain('proprietary model');
    expect(await opening({ openWeightsOnly: true })).not.toContain('proprietary model');
    expect(await opening({ licenses: ['Apache 2.0'] })).toEqual(byLanguageFolder(EXPORTED.filter((name) => name !== 'proprietary model')));
    expect(await opening({ minPrefStrength: 'strong' }, 'dpo')).toHaveLength(2);
    expect(await opening({ minPrefStrength: 'weak' }, 'dpo')).toHaveLength(4);
  });

  it('writes the same bytes twice, Parquet and JSONL agreeing row for row', async () => {
    const [firstOut, secondOut] = [outDir(), outDir()];
    await run({ outDir: firstOut });
    await run({ outDir: secondOut });
    const firstFiles = filesUnder(firstOut);
    const secondFiles = filesUnder(secondOut);
    expect(firstFiles.map((path) => path.slice(firstOut.length))).toEqual(secondFiles.map((path) => path.slice(secondOut.length)));
    // Eight public subsets and three gated ones in two formats, French and Occitan each (kto, reactions and
    // dpo_turns have no Occitan row), and a card in each of the two folders.
    const subsetFolders = [
      ...['conversations', 'votes', 'reactions', 'dpo', 'kto', 'reward', 'turn_verdicts', 'dpo_turns'].map((subset) => `public/${subset}`),
      ...['conversations', 'votes', 'reactions'].map((subset) => `gated/${subset}`),
    ];
    expect(firstFiles.map((path) => path.slice(firstOut.length + 1))).toEqual(
      [
        'public/README.md',
        'gated/README.md',
        ...subsetFolders.flatMap((folder) =>
          ['fr', 'oc'].flatMap((language) => [`${folder}/${language}/train-00000.parquet`, `${folder}/${language}/train.jsonl`]),
        ),
      ]
        .filter((path) => !/^\w+\/(kto|reactions|dpo_turns)\/oc\//.test(path))
        .sort(),
    );
    for (let index = 0; index < firstFiles.length; index++)
      expect(readFileSync(firstFiles[index]!).equals(readFileSync(secondFiles[index]!))).toBe(true);
    for (const dataset of DATASET_NAMES) {
      for (const tier of TIERS_OF[dataset]) {
        const fromJsonl = subsetJsonl(firstOut, dataset, tier);
        const fromParquet = await subsetRows(firstOut, dataset, tier);
        expect(fromJsonl).toHaveLength(fromParquet.length);
        expect(fromJsonl.length, `${tier} ${dataset}`).toBeGreaterThan(0);
        for (const row of fromJsonl) expect(Object.keys(row)).toEqual(tierColumns(tier, dataset).map((column) => column.name));
      }
    }
  });

  it('writes the same bytes with builders in worker threads and in this thread', async () => {
    const facts = exportModelFacts(catalogue(), { method: '0.9.1', zone: undefined });
    const settings = { privateCohorts: ['school-2026', 'pilot'], batchSize: 3, rowGroupRows: 2 };
    const now = () => new Date('2026-11-30T08:00:00.000Z');
    const request = { formats: ['parquet', 'jsonl'] as const, datasets: [...DATASET_NAMES] };
    const [threadedOut, inlineOut] = [outDir(), outDir()];
    const threaded = await new DatasetExportService(store.datasets, facts, { ...settings, threads: true }, now).export({
      ...request,
      outDir: threadedOut,
    });
    const inline = await new DatasetExportService(store.datasets, facts, { ...settings, threads: false }, now).export({
      ...request,
      outDir: inlineOut,
    });
    const relativeFiles = (result: typeof inline, out: string) =>
      result.files.map((file) => [file.dataset, file.language, file.format, file.path.slice(out.length), file.rows]);
    expect(relativeFiles(threaded, threadedOut)).toEqual(relativeFiles(inline, inlineOut));
    for (let index = 0; index < inline.files.length; index++)
      expect(readFileSync(threaded.files[index]!.path).equals(readFileSync(inline.files[index]!.path))).toBe(true);
    for (let index = 0; index < inline.cards.length; index++)
      expect(readFileSync(threaded.cards[index]!.path, 'utf8')).toBe(readFileSync(inline.cards[index]!.path, 'utf8'));
  });

  it('never writes a duel id, visitor hash, cohort or the salt; one visitor keeps one salted id across exports', async () => {
    const [firstOut, secondOut] = [outDir(), outDir()];
    await run({ outDir: firstOut });
    await run({ outDir: secondOut });
    const salt = (await store.datasets.visitorSalt(() => 'not used: the salt exists')).toString();
    expect(salt).toMatch(/^[0-9a-f]{64}$/);
    const secrets = [...SEEDS.flatMap((entry) => [duelId(entry), visitorHash(entry)]), 'school-2026', 'open-day', salt];
    for (const path of filesUnder(firstOut)) {
      const bytes = readFileSync(path);
      for (const secret of secrets) expect(bytes.includes(secret), `${secret} in ${path}`).toBe(false);
    }
    const ids = (out: string) => subsetJsonl(out, 'conversations').map((row) => row.visitor_id as string);
    expect(ids(firstOut)).toEqual(ids(secondOut));
    expect(ids(firstOut).every((id) => /^[0-9a-f]{64}$/.test(id))).toBe(true);
    // Visitor ids are in the gated tier only: no public row can group one visitor's conversations.
    for (const dataset of DATASET_NAMES) {
      const rows = subsetJsonl(firstOut, dataset, 'public');
      expect(rows.length, dataset).toBeGreaterThan(0);
      for (const row of rows) for (const id of ids(firstOut)) expect(JSON.stringify(row)).not.toContain(id);
    }
  });

  it('writes a card in each folder whose default config, configs and dataset_info count the rows of the files', async () => {
    const out = outDir();
    const result = await run({ outDir: out, datasetLicense: 'etalab-2.0' });
    expect(result.cards).toEqual([
      { tier: 'public', path: join(out, 'public', 'README.md') },
      { tier: 'gated', path: join(out, 'gated', 'README.md') },
    ]);
    const cards = Object.fromEntries(result.cards.map((card) => [card.tier, readFileSync(card.path, 'utf8')])) as Record<
      DatasetTier,
      string
    >;
    for (const card of Object.values(cards)) {
      expect(card).toMatch(/^---\nlicense: etalab-2.0\nlanguage:\n- fr\n- oc\ntask_categories:\n- text-generation\n/);
      expect(card).toContain('size_categories:\n- n<1K');
      expect(card).toContain(
        `Of ${SEEDS.length} conversations in the store: 2 not screened yet, 1 whose screening failed, 1 flagged as containing personal data, 1 reported and not reviewed, 1 excluded by a reviewer, 1 in private cohorts (2 configured); 1 flagged or reported ones were included by a reviewer.`,
      );
      expect(card).toContain('was not configured for 7');
      expect(card).toContain('## Training use');
    }
    // The gated tier asks for access; the public one does not.
    expect(cards.gated).toContain('extra_gated_prompt:');
    expect(cards.gated).toContain('  Affiliation: text');
    expect(cards.public).not.toContain('extra_gated');
    expect(cards.gated).toContain(
      '- config_name: conversations\n  default: true\n  data_files:\n  - split: train\n    path: "conversations/*/train-*.parquet"',
    );
    expect(cards.public).toContain(
      '- config_name: conversations\n  default: true\n  data_files:\n  - split: train\n    path: "conversations/*/train-*.parquet"',
    );
    expect(cards.public).toContain('- config_name: dpo-fr\n  data_files:\n  - split: train\n    path: "dpo/fr/train-*.parquet"');
    expect(cards.gated).not.toContain('config_name: dpo');
    for (const tier of ['public', 'gated'] as const) {
      const header = cardHeader(cards[tier]);
      // One default config, and every config has its count, counted here from the rows of the files it names.
      expect(header.configs.filter((config) => config.default === true).map((config) => config.config_name)).toEqual(['conversations']);
      const files = filesUnder(join(out, tier)).filter((path) => path.endsWith('.parquet'));
      const expected: Record<string, number> = {};
      for (const config of header.configs) {
        const pattern = new RegExp(`^${config.data_files[0]!.path.replace(/[.]/g, '\\.').replace(/\*/g, '[^/]*')}$`);
        const matched = files.filter((path) => pattern.test(path.slice(join(out, tier).length + 1)));
        expect(matched.length, config.config_name).toBeGreaterThan(0);
        expected[config.config_name] = (await Promise.all(matched.map(readParquetRows))).reduce((sum, rows) => sum + rows.length, 0);
      }
      expect(Object.fromEntries(header.dataset_info.map((info) => [info.config_name, info.splits[0]!.num_examples]))).toEqual(expected);
      const subsets = DATASET_NAMES.filter((dataset) => TIERS_OF[dataset].includes(tier));
      expect(header.configs.filter((config) => !config.config_name.includes('-')).map((config) => config.config_name)).toEqual(subsets);
      for (const dataset of subsets) {
        const rows = expected[dataset]!;
        expect(rows, `${tier} ${dataset}`).toBeGreaterThan(0);
        expect(cards[tier]).toContain(`| \`${dataset}\` | ${rows} |`);
        // The same rows in JSONL.
        expect(subsetJsonl(out, dataset, tier), `${tier} ${dataset}`).toHaveLength(rows);
      }
    }
  });

  it('cuts Parquet into files of a bounded number of rows, the card counting them all', async () => {
    const facts = exportModelFacts(catalogue(), { method: '0.9.1', zone: undefined });
    const sharded = new DatasetExportService(store.datasets, facts, {
      privateCohorts: ['school-2026'],
      batchSize: 3,
      rowGroupRows: 2,
      fileRows: 3,
    });
    const out = outDir();
    const result = await sharded.export({ outDir: out, formats: ['parquet'], datasets: ['conversations'] });
    expect(result.files.map((file) => [file.path.slice(out.length + 1), file.rows])).toEqual(
      ['public', 'gated'].flatMap((tier) => [
        [`${tier}/conversations/fr/train-00000.parquet`, 3],
        [`${tier}/conversations/fr/train-00001.parquet`, 3],
        [`${tier}/conversations/oc/train-00000.parquet`, 1],
      ]),
    );
    const rows = (await Promise.all(result.files.filter((file) => file.tier === 'gated').map((file) => readParquetRows(file.path)))).flat();
    expect(rows.map((row) => row.opening_msg)).toEqual(byLanguageFolder(EXPORTED));
    expect(result.cards.map((card) => card.tier)).toEqual(['public', 'gated']);
    for (const card of result.cards)
      expect(readFileSync(card.path, 'utf8')).toContain(
        `| \`conversations\` | ${EXPORTED.length} | \`conversations/*/train-*.parquet\` | fr (6), oc (1) |`,
      );
  });

  it('holds at most about a row group per subset and tier in memory, and a shuffle window, whatever the number of languages', async () => {
    // Row groups of 1,000 rows, one subset in two tiers: the writers of all languages together hold at
    // most 2,000 rows between two checks, the public rows waiting to be shuffled at most 500, so a
    // language with few rows is written early in a smaller group.
    const { DatasetBuilder } = await import('../src/adapters/dataset-files/dataset-builder');
    const out = outDir();
    const builder = new DatasetBuilder({
      outDir: out,
      formats: ['parquet'],
      datasets: ['conversations'],
      filters: {},
      salt: 'salt',
      models: [],
      rowGroupRows: 1000,
      fileRows: 100_000,
      shuffleRows: 500,
    });
    const languages = Array.from(
      { length: 40 },
      (_, index) => `l${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}`,
    );
    const conversations = Array.from({ length: 4000 }, (_, index) => syntheticConversation(index, languages[index % languages.length]!));
    type Held = { writers: { pendingRows: number }[]; waiting: unknown[] };
    for (let start = 0; start < conversations.length; start += 500) {
      builder.add(conversations.slice(start, start + 500));
      const sets = [...(builder as unknown as { sets: Map<string, Held> }).sets.values()];
      const pending = sets.flatMap((set) => set.writers).reduce((sum, writer) => sum + writer.pendingRows, 0);
      expect(pending).toBeLessThanOrEqual(2 * 1000 + 256);
      expect(sets.reduce((sum, set) => sum + set.waiting.length, 0)).toBeLessThanOrEqual(500 + 256);
    }
    const files = builder.finish();
    expect(new Set(files.map((file) => file.language)).size).toBe(40);
    for (const tier of ['public', 'gated'] as const) {
      let rows = 0;
      for (const file of files.filter((entry) => entry.tier === tier)) rows += (await readParquetRows(file.path)).length;
      expect(rows, tier).toBe(4000);
    }
  });

  it('never lets an imported language name a folder outside the export', async () => {
    const { fileLanguage } = await import('../src/adapters/dataset-files/dataset-builder');
    expect(['fr', 'oc', 'pt-BR', 'zh-Hant-TW'].map(fileLanguage)).toEqual(['fr', 'oc', 'pt-BR', 'zh-Hant-TW']);
    expect(['../etc', 'fr/../..', '', 'FR', 'fr\0', null, 42, 'a'.repeat(4)].map(fileLanguage)).toEqual(Array(8).fill('und'));
  });

  it("reads back with DuckDB: compar:IA's message struct, every column typed, each language config loadable, counts those of the card", async () => {
    const folder = outDir();
    const result = await run({ outDir: folder });
    const duckdb = await DuckDBInstance.create(':memory:');
    const connection = await duckdb.connect();
    const duckType: Record<string, string> = {
      string: 'VARCHAR',
      int: 'BIGINT',
      float: 'DOUBLE',
      bool: 'BOOLEAN',
      timestamp: 'TIMESTAMP WITH TIME ZONE',
      date: 'DATE',
      strings: 'VARCHAR[]',
      messages: 'STRUCT("role" VARCHAR, "content" VARCHAR)[]',
      transcript:
        'STRUCT("role" VARCHAR, "content" VARCHAR, reasoning_content VARCHAR, metadata STRUCT(generation_id VARCHAR, output_tokens BIGINT, duration DOUBLE))[]',
    };
    const count = async (glob: string) =>
      Number((await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${glob}')`)).getRowObjectsJS()[0]!.n);
    try {
      for (const file of result.files.filter((entry) => entry.format === 'parquet')) {
        const described = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${file.path}')`)).getRowObjectsJS();
        expect(described.map((row) => [row.column_name, row.column_type])).toEqual(
          tierColumns(file.tier, file.dataset).map((column) => [column.name, duckType[column.type]]),
        );
      }
      // Every config of the cards, as a reader would load it: the glob of its data files, from the card's folder.
      let configCount = 0;
      for (const card of result.cards) {
        const { configs, dataset_info: info } = cardHeader(readFileSync(card.path, 'utf8'));
        configCount += configs.length;
        for (const {
          config_name: name,
          data_files: [files],
        } of configs) {
          const dataset = name.replace(/-[a-z]{2,3}$/, '') as DatasetName;
          const rows = await count(join(folder, tierFolder(card.tier), files!.path));
          expect(rows, name).toBeGreaterThan(0);
          const language = name.slice(dataset.length + 1);
          const expected = result.files
            .filter(
              (file) =>
                file.tier === card.tier &&
                file.format === 'parquet' &&
                file.dataset === dataset &&
                (language === '' || file.language === language),
            )
            .reduce((sum, file) => sum + file.rows, 0);
          expect(rows, name).toBe(expected);
          expect(info.find((entry) => entry.config_name === name)?.splits[0]?.num_examples, name).toBe(rows);
        }
      }
      // Public: eight subsets, French and Occitan each but kto, reactions and dpo_turns; gated: three, reactions French only.
      expect(configCount).toBe(8 + 8 * 2 - 3 + (3 + 3 * 2 - 1));
      const [first] = (
        await connection.runAndReadAll(
          `SELECT conversation_a[1].role AS role, conversation_a[2].content AS content, conversation_a[3].reasoning_content AS reasoning, conversation_a[3].metadata.output_tokens AS tokens, epoch_ms(timestamp)::BIGINT AS ms FROM read_parquet('${join(folder, 'gated', 'conversations', 'fr', 'train-*.parquet')}') LIMIT 1`,
        )
      ).getRowObjectsJS();
      expect(first).toEqual({
        role: 'system',
        content: 'clean voted',
        reasoning: 'reasoning a to clean voted',
        tokens: 100n,
        ms: BigInt(Date.parse('2026-11-01T10:00:00.000Z')),
      });
    } finally {
      connection.closeSync();
      duckdb.closeSync();
    }
  });
});

/** A minimal exportable conversation in a given language (for the builder's memory bound). */
function syntheticConversation(index: number, language: string): ExportableConversation {
  const answer = (side: string) => ({
    modelId: `model-${side}`,
    text: `answer ${side} ${index}`,
    reasoning: null,
    outputTokens: 10,
    durationMs: 100,
    sourceMetadata: null,
  });
  return {
    duelId: `duel-${index}`,
    source: 'arena',
    externalId: null,
    visitorHash: `visitor-${index}`,
    mode: 'random',
    modelA: 'model-a',
    modelB: 'model-b',
    chosenModels: null,
    createdAt: new Date(Date.UTC(2026, 10, 1) + index * 1000).toISOString(),
    sourceMeta: null,
    languages: [language],
    promptLanguages: [language],
    categories: null,
    keywords: null,
    shortSummary: null,
    modelStatus: 'done',
    screenedBy: 'agora',
    turns: [{ turn: 1, prompt: `prompt ${index}`, a: answer('a'), b: answer('b') }],
    vote: null,
    reactions: [],
    turnVerdicts: [],
  };
}

describe.each(DIALECTS)('agora export after real duels ($name)', (dialect) => {
  it('publishes an arena duel played over HTTP without its cookie, visitor hash or duel id anywhere in any file', async () => {
    const harness = await startTestArena(dialect);
    const out = mkdtempSync(join(tmpdir(), 'agora-export-arena-'));
    try {
      harness.fake.defaultBehaviour = { tokensPerSecond: 2000 };
      const { client, arena } = harness;
      const created = await client.request('POST', '/api/v1/duels', { prompt: 'Quelle est la capitale de la Bretagne ?', locale: 'fr' });
      const id = created.json.id as string;
      await client.stream(id);
      await client.request('POST', `/api/v1/duels/${id}/reactions`, { side: 'b', turn: 1, value: 'dislike', tags: ['incorrect'] });
      expect((await client.request('PUT', `/api/v1/duels/${id}/turns/1/verdict`, { verdict: 'a_better' })).status).toBe(200);
      expect((await client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a', tags: { a: ['useful'] } })).status).toBe(200);
      const cookie = (client as unknown as { cookie: string }).cookie.split('=')[1]!;
      const duel = (await arena.store.duels.findById(id))!;
      const at = new Date().toISOString();
      await arena.store.annotations.save({
        duelId: id,
        status: 'done',
        attempts: 1,
        lastError: null,
        nextAttemptAt: null,
        turnsAnnotated: 1,
        languages: ['fr'],
        messageLanguages: null,
        piiRuleKinds: [],
        piiModelKinds: null,
        containsPii: false,
        modelStatus: 'not_configured',
        modelId: null,
        categories: [],
        keywords: [],
        shortSummary: null,
        annotatedAt: at,
        updatedAt: at,
      });
      const service = new DatasetExportService(arena.store.datasets, exportModelFacts(catalogue(), { method: '0.9.1', zone: undefined }), {
        privateCohorts: [],
      });
      const result = await service.export({ outDir: out, formats: ['parquet', 'jsonl'], datasets: [...DATASET_NAMES] });
      // Each subset in both formats: eight public (the turn verdict gives a turn_verdicts row and a dpo_turns pair), three gated.
      expect(result.files.map((file) => [file.tier, file.dataset, file.language, file.rows])).toEqual(
        [
          ...DATASET_NAMES.map((dataset) => ['public', dataset]),
          ...(['conversations', 'votes', 'reactions'] as const).map((dataset) => ['gated', dataset]),
        ].flatMap((set) => [
          [...set, 'fr', 1],
          [...set, 'fr', 1],
        ]),
      );
      const [row] = subsetJsonl(out, 'votes');
      expect(row).toMatchObject({
        opening_msg: 'Quelle est la capitale de la Bretagne ?',
        chosen_model_name: duel.modelA,
        conv_useful_a: true,
        both_bad: false,
      });
      for (const path of filesUnder(out)) {
        const bytes = readFileSync(path);
        for (const secret of [cookie, duel.visitorHash, id]) expect(bytes.includes(secret), `${secret} in ${path}`).toBe(false);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
      await harness.close();
    }
  });
});

describe.each(DIALECTS)('agora import comparia then agora export ($name)', (dialect) => {
  it("gives compar:IA's rows back with the values they came with", async () => {
    const { ComparIaImportService } = await import('../src/services/comparia-import.service');
    const fixtures = join(__dirname, 'fixtures', 'comparia');
    const testStore = await dialect.create();
    const db = openDatabase(testStore.location);
    await migrateToLatest(db);
    const store = createStore(db);
    const out = mkdtempSync(join(tmpdir(), 'agora-export-comparia-'));
    try {
      await new ComparIaImportService(store).importFiles(
        {
          conversations: join(fixtures, 'conversations.jsonl'),
          votes: join(fixtures, 'votes.jsonl'),
          reactions: join(fixtures, 'reactions.jsonl'),
        },
        { batchSize: 100, trustSource: true },
      );
      const service = new DatasetExportService(store.datasets, new Map(), { privateCohorts: [] });
      await service.export({ outDir: out, formats: ['jsonl'], datasets: ['conversations', 'votes', 'reactions'] });
      // Imported with --trust-source: both cards say that compar:IA's screening was taken as is.
      for (const tier of ['public', 'gated'])
        expect(readFileSync(join(out, tier, 'README.md'), 'utf8')).toMatch(
          /- Imported conversations \((\d+) from `comparia`: 0 screened by this arena like its own, \1 taken as screened by their source\)/,
        );
      for (const dataset of ['conversations', 'votes', 'reactions'] as const) {
        const input = readJsonl(join(fixtures, `${dataset}.jsonl`));
        const exported = subsetJsonl(out, dataset);
        expect(exported.length, dataset).toBeGreaterThan(0);
        for (const row of exported) {
          const original = input.find((candidate) => String(candidate.id) === row.id)!;
          expect(original, `${dataset} ${row.id}`).toBeDefined();
          expect(row.source).toBe('comparia');
          expect(Date.parse(row.timestamp)).toBe(
            typeof original.timestamp === 'number' ? original.timestamp : Date.parse(`${original.timestamp}Z`),
          );
          // Answers come back with their reasoning and metadata, as compar:IA's files have them.
          type Message = { role: string; content: string; reasoning_content?: string | null; metadata?: Record<string, unknown> | null };
          const same = (exported: Message[], list: Message[], side: string) => {
            expect(
              exported.map(({ role, content }) => ({ role, content })),
              side,
            ).toEqual(list.map(({ role, content }) => ({ role, content })));
            list.forEach((message, index) => {
              if (message.role !== 'assistant') return;
              expect(exported[index]!.reasoning_content ?? null, side).toBe(message.reasoning_content ?? null);
              if (message.metadata) expect(exported[index]!.metadata, side).toEqual(message.metadata);
            });
          };
          same(row.conversation_a, original.conversation_a, `${dataset} ${row.id} conversation_a`);
          same(row.conversation_b, original.conversation_b, `${dataset} ${row.id} conversation_b`);
          for (const [name, value] of Object.entries(original)) {
            if (['id', 'timestamp', 'conversation_a', 'conversation_b'].includes(name) || !(name in row)) continue;
            // Derived from the answers' own counts (compar:IA computes them the same way; the fixture's totals are made up).
            if (['total_conv_a_output_tokens', 'total_conv_b_output_tokens'].includes(name)) continue;
            // An old row with neither like nor dislike set both ways: the export says what the import kept.
            if (value === null && ['liked', 'disliked'].includes(name)) continue;
            expect(row[name], `${dataset} ${row.id} ${name}`).toEqual(value);
          }
        }
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
      await store.close();
      await testStore.drop();
    }
  });
});
