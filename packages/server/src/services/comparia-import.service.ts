import type {
  ComparIaImportRepository,
  ImportedDuel,
  ImportedReaction,
  ImportedVote,
  StoredDuel,
  StoredTopics,
} from '../db/repositories/comparia-import.repository';
import type { Repositories, Store } from '../db/unit-of-work';
import type { ComparIaTable } from '../domain/datasets/export-columns';
import { loadTokenCounter } from '../adapters/local-token-count';
import { JsonLineReader, readRecordFile } from '../adapters/vote-files/record-file';
import { VoteFileError } from '../adapters/vote-files/vote-file-error';
import { importedDuelId } from '../adapters/comparia-ids';
import { COMPARIA_SOURCE, mapComparIaRow, mapRowOnDuel, type ComparIaTopics } from '../domain/comparia/comparia-rows';
import { type ImportedTurnVerdict, type MappedArenaRow, mapComparIaArenaRow } from '../domain/comparia/comparia-arena-rows';
import { ComparIaRowError } from '../domain/comparia/comparia-values';

/** What a file holds: one of compar:IA's three open tables, or its per-response arena data (`comparia-fr-arena`). */
export type ComparIaImportDataset = ComparIaTable | 'arena';

/** The files of one `agora import comparia` run (a dataset may come in several files: shards). */
export type ComparIaFiles = Partial<Record<ComparIaImportDataset, string | readonly string[]>>;

/** What importing one file did, row by row. */
export interface ImportedFileSummary {
  dataset: ComparIaImportDataset;
  path: string;
  read: number;
  inserted: number;
  /** Rows already stored with other values, rewritten from the file. */
  updated: number;
  /** Rows already stored exactly so: left alone. */
  present: number;
  skipped: Record<string, number>;
  /** Conversations created from vote or reaction rows (their conversations file was not given, or lacks them). */
  conversationsCreated: number;
  seconds: number;
}

export interface ImportProgress {
  dataset: ComparIaImportDataset;
  path: string;
  rows: number;
  done: number;
  total: number;
}

export interface ComparIaImportOptions {
  /** Rows per transaction (default 2000). */
  batchSize?: number;
  /**
   * Take compar:IA's own screening as Agora's (`--trust-source`): its conversations are stored as
   * screened, with no personal data. By default they wait for Agora's post-processing (rules and
   * model layer), like the arena's own; compar:IA's languages and topics are kept meanwhile.
   */
  trustSource?: boolean;
  /** Called as the file is read: rows so far, and how far into the file (bytes, or rows of a Parquet file). */
  onProgress?: (progress: ImportProgress) => void;
  now?: () => number;
}

/** Files are imported in this order, so that votes and reactions find their conversations. */
const ORDER: readonly ComparIaImportDataset[] = ['conversations', 'arena', 'votes', 'reactions'];

const ANNOTATION_MODEL = 'comparia';

/** A mapped row and where it was read. */
interface PendingRow {
  row: MappedArenaRow;
  location: string;
}

/**
 * `agora import comparia`: loads compar:IA's public dataset files into the store, idempotently.
 * Each conversation pair is one duel (source `comparia`, external id = `conversation_pair_id`);
 * rows are written in transactions of a few thousand; a bad row stops the import with its file
 * and line, and the batch it was in is not written (earlier batches are, and a second run skips them).
 */
export class ComparIaImportService {
  constructor(private readonly store: Store) {}

  async importFiles(files: ComparIaFiles, options: ComparIaImportOptions = {}): Promise<ImportedFileSummary[]> {
    const summaries: ImportedFileSummary[] = [];
    for (const dataset of ORDER) {
      const paths = files[dataset];
      for (const path of typeof paths === 'string' ? [paths] : (paths ?? [])) summaries.push(await this.importFile(dataset, path, options));
    }
    return summaries;
  }

  private async importFile(dataset: ComparIaImportDataset, path: string, options: ComparIaImportOptions): Promise<ImportedFileSummary> {
    const now = options.now ?? Date.now;
    const started = now();
    const batchSize = options.batchSize ?? 2000;
    const mapping = { countTokens: await loadTokenCounter(), duelIdOf: importedDuelId };
    const summary: ImportedFileSummary = {
      dataset,
      path,
      read: 0,
      inserted: 0,
      updated: 0,
      present: 0,
      skipped: {},
      conversationsCreated: 0,
      seconds: 0,
    };
    let pending: PendingRow[] = [];
    const add = (record: unknown, location: string): void => {
      summary.read += 1;
      if (record === null || typeof record !== 'object' || Array.isArray(record))
        throw new VoteFileError(path, location, 'expected a JSON object');
      try {
        const row = record as Record<string, unknown>;
        pending.push({
          row: dataset === 'arena' ? mapComparIaArenaRow(row, mapping) : mapComparIaRow(dataset, row, mapping),
          location,
        });
      } catch (error) {
        if (error instanceof ComparIaRowError) throw new VoteFileError(path, location, error.message);
        throw error;
      }
    };
    const lines = new JsonLineReader(path, (record, line) => add(record, `line ${line}`));
    const flush = async (): Promise<void> => {
      while (pending.length > 0) {
        const batch = pending.slice(0, batchSize);
        pending = pending.slice(batch.length);
        await this.store.transaction((repositories) => applyBatch(repositories, batch, summary, options.trustSource === true));
      }
    };
    await readRecordFile(
      path,
      {
        addLines: (text) => lines.addLines(text),
        addRecord: add,
        flush: async () => {
          if (pending.length >= batchSize) await flush();
        },
      },
      {
        onProgress:
          options.onProgress && ((done, total) => options.onProgress!({ dataset, path, rows: summary.read - pending.length, done, total })),
      },
    );
    await flush();
    summary.seconds = (now() - started) / 1000;
    return summary;
  }
}

/**
 * Votes and reactions without text mapped onto the conversation they name, as stored by an earlier
 * batch or file (the conversations file is imported first); a row whose conversation is not stored
 * is skipped, and says so.
 */
async function joinStoredConversations(imports: ComparIaImportRepository, batch: PendingRow[], path: string): Promise<PendingRow[]> {
  const joining = batch.flatMap(({ row }) => ('joins' in row ? [row.joins] : []));
  if (joining.length === 0) return batch;
  const stored = await imports.findDuels(COMPARIA_SOURCE, [...new Set(joining)]);
  const duels = await imports.loadImportedDuels([...stored.values()]);
  return batch.map((pending) => {
    const { row } = pending;
    if (!('joins' in row)) return pending;
    const duel = duels.get(stored.get(row.joins)?.id ?? '');
    if (duel === undefined)
      return { ...pending, row: { dataset: row.dataset, skip: 'no messages, and no imported conversation of its id' } };
    try {
      return { ...pending, row: mapRowOnDuel(row.dataset, row.row, duel) };
    } catch (error) {
      if (error instanceof ComparIaRowError) throw new VoteFileError(path, pending.location, error.message);
      throw error;
    }
  });
}

/** What one batch writes, gathered so that inserts go out as a few multi-row statements. */
interface BatchWrites {
  duels: Map<string, { duel: ImportedDuel; status: string }>;
  votes: ImportedVote[];
  voted: string[];
  reactions: Map<string, ImportedReaction>;
  topics: { duel: ImportedDuel; topics: ComparIaTopics }[];
  /** By `duelId|turn`: a turn given twice in one batch is written once, the last row's. */
  verdicts: Map<string, ImportedTurnVerdict>;
}

async function applyBatch(
  repositories: Repositories,
  rawBatch: PendingRow[],
  summary: ImportedFileSummary,
  trustSource: boolean,
): Promise<void> {
  const imports = repositories.comparIaImport;
  const batch = await joinStoredConversations(imports, rawBatch, summary.path);
  const rows = batch.flatMap(({ row }) => ('skip' in row || 'joins' in row ? [] : [row]));
  for (const { row } of batch) if ('skip' in row) summary.skipped[row.skip] = (summary.skipped[row.skip] ?? 0) + 1;
  const known = await imports.findDuels(COMPARIA_SOURCE, [...new Set(rows.map((row) => row.duel.externalId))]);
  const duelIds = [...new Set(rows.map((row) => row.duel.id))];
  const votes = summary.dataset === 'votes' ? await imports.findVotes(duelIds) : new Map<string, ImportedVote>();
  const reactions = new Map<string, ImportedReaction>();
  if (summary.dataset === 'reactions')
    for (const reaction of await imports.findReactions(duelIds)) reactions.set(reactionKey(reaction), reaction);
  const writes: BatchWrites = { duels: new Map(), votes: [], voted: [], reactions: new Map(), topics: [], verdicts: new Map() };
  const verdicts = summary.dataset === 'arena' ? await imports.findTurnVerdicts(duelIds) : new Map<string, ImportedTurnVerdict>();
  const changesBefore = summary.inserted + summary.updated;
  let topicsSaved = 0;
  const count = (outcome: 'inserted' | 'updated' | 'present'): void => {
    summary[outcome] += 1;
  };
  for (const row of rows) {
    if (row.dataset === 'conversations') {
      const outcome = await putConversation(imports, known, writes, row.duel);
      writes.topics.push({ duel: row.duel, topics: row.topics });
      if (row.verdict === undefined) {
        count(outcome);
        continue;
      }
      // An arena row is its turn's verdict (its conversation repeats on every row of the conversation).
      const key = `${row.verdict.duelId}|${row.verdict.turn}`;
      const existing = verdicts.get(key);
      if (existing !== undefined && sameRecord(existing, row.verdict)) count(outcome === 'present' ? 'present' : 'updated');
      else {
        count(existing === undefined && outcome !== 'updated' ? 'inserted' : 'updated');
        verdicts.set(key, row.verdict);
        writes.verdicts.set(key, row.verdict);
      }
      continue;
    }
    const stored = await ensureDuel(imports, known, writes, row.duel, summary);
    if (row.dataset === 'votes') {
      const vote = { ...row.vote, mode: stored.mode };
      const existing = votes.get(vote.duelId);
      if (existing === undefined) {
        votes.set(vote.duelId, vote);
        writes.votes.push(vote);
        const created = writes.duels.get(stored.externalId);
        if (created) created.status = 'voted';
        else writes.voted.push(vote.duelId);
        stored.status = 'voted';
        count('inserted');
      } else if (sameRecord(existing, vote)) count('present');
      else summary.skipped['another vote for this conversation'] = (summary.skipped['another vote for this conversation'] ?? 0) + 1;
    } else {
      const { reaction } = row;
      const key = reactionKey(reaction);
      const existing = reactions.get(key);
      if (existing !== undefined && sameRecord(existing, reaction)) {
        count('present');
        continue;
      }
      count(existing === undefined ? 'inserted' : 'updated');
      reactions.set(key, reaction);
      writes.reactions.set(key, reaction);
    }
  }
  await imports.insertDuels([...writes.duels.values()]);
  await imports.insertVotes(writes.votes);
  await imports.markVoted(writes.voted);
  await imports.upsertReactions([...writes.reactions.values()]);
  await imports.upsertTurnVerdicts([...writes.verdicts.values()]);
  const storedTopics =
    writes.topics.length > 0 ? await imports.findTopics(writes.topics.map(({ duel }) => duel.id)) : new Map<string, StoredTopics>();
  for (const { duel, topics } of writes.topics) {
    const stored = storedTopics.get(duel.id);
    // Agora's own post-processing annotated it since: left alone
    if (stored !== undefined && stored.modelId !== ANNOTATION_MODEL) continue;
    if (stored !== undefined && sameRecord(stored, storedTopicsOf(duel, topics, trustSource))) continue;
    await saveTopics(repositories, duel, topics, trustSource);
    topicsSaved += 1;
  }
  // Imported votes carry their own (past) times, and replaced conversations and their topics
  // (stamped with the conversation's time) change votes already read: a live leaderboard must read
  // every vote again rather than follow changes by time.
  if (summary.inserted + summary.updated > changesBefore || topicsSaved > 0) await repositories.feedback.bumpRankingEpoch();
}

/** A conversations row: the conversation's own file, so it is authoritative for the duel (but not its status). */
async function putConversation(
  imports: ComparIaImportRepository,
  known: Map<string, StoredDuel>,
  writes: BatchWrites,
  duel: ImportedDuel,
): Promise<'inserted' | 'updated' | 'present'> {
  const stored = known.get(duel.externalId);
  if (stored === undefined) {
    writes.duels.set(duel.externalId, { duel, status: 'ready' });
    known.set(duel.externalId, storedOf(duel, 'ready'));
    return 'inserted';
  }
  if (sameDuel(stored, duel)) return 'present';
  const created = writes.duels.get(duel.externalId);
  if (created) created.duel = duel;
  else await imports.replaceDuel(duel);
  known.set(duel.externalId, storedOf(duel, stored.status));
  return 'updated';
}

/** The duel of a vote or reaction row: created from the row when missing, given the row's turns when it has more. */
async function ensureDuel(
  imports: ComparIaImportRepository,
  known: Map<string, StoredDuel>,
  writes: BatchWrites,
  duel: ImportedDuel,
  summary: ImportedFileSummary,
): Promise<StoredDuel> {
  const stored = known.get(duel.externalId);
  if (stored === undefined) {
    writes.duels.set(duel.externalId, { duel, status: 'ready' });
    const created = storedOf(duel, 'ready');
    known.set(duel.externalId, created);
    summary.conversationsCreated += 1;
    return created;
  }
  if (duel.turns.length > stored.turnCount) {
    const created = writes.duels.get(duel.externalId);
    if (created) created.duel = { ...created.duel, turns: duel.turns };
    else await imports.replaceTurns({ ...duel, id: stored.id });
    stored.turnCount = duel.turns.length;
  }
  return stored;
}

/** One answer's reaction: a duel, a turn, a side. */
const reactionKey = (reaction: ImportedReaction): string => `${reaction.duelId}|${reaction.turn}|${reaction.side}`;

function storedOf(duel: ImportedDuel, status: string): StoredDuel {
  const { id, externalId, visitorHash, mode, modelA, modelB, chosenModels, createdAt, sourceMeta } = duel;
  return { id, externalId, status, visitorHash, mode, modelA, modelB, chosenModels, createdAt, sourceMeta, turnCount: duel.turns.length };
}

function sameDuel(stored: StoredDuel, duel: ImportedDuel): boolean {
  return sameRecord(stored, storedOf(duel, stored.status));
}

function sameRecord<T extends object>(stored: T, incoming: T): boolean {
  return Object.entries(incoming).every(([key, value]) => (stored as Record<string, unknown>)[key] === value);
}

function storedTopicsOf(duel: ImportedDuel, topics: ComparIaTopics, trustSource: boolean): StoredTopics {
  const list = (values: string[] | null): string | null => (values === null ? null : JSON.stringify(values));
  return {
    modelId: ANNOTATION_MODEL,
    status: trustSource ? 'done' : 'pending',
    containsPii: trustSource ? 0 : null,
    turnsAnnotated: trustSource ? duel.turns.length : 0,
    languages: list(topics.languages),
    categories: list(topics.categories),
    keywords: list(topics.keywords),
    shortSummary: topics.shortSummary,
    updatedAt: duel.createdAt,
  };
}

/**
 * compar:IA's public conversations were screened by compar:IA, whose rules are not Agora's: they are
 * stored with compar:IA's languages and topics, waiting (`pending`) for Agora's post-processing to
 * screen them like the arena's own. With `--trust-source`, compar:IA's screening is taken as Agora's:
 * annotated (`done`, no personal data) at once. An annotation Agora's own post-processing wrote since
 * is left alone.
 */
async function saveTopics(repositories: Repositories, duel: ImportedDuel, topics: ComparIaTopics, trustSource: boolean): Promise<void> {
  await repositories.annotations.save({
    duelId: duel.id,
    status: trustSource ? 'done' : 'pending',
    attempts: 0,
    lastError: null,
    // Due at once: a running server's next post-processing pass takes it (its queue reads pending annotations that are due).
    nextAttemptAt: trustSource ? null : duel.createdAt,
    turnsAnnotated: trustSource ? duel.turns.length : 0,
    languages: topics.languages,
    messageLanguages: null,
    piiRuleKinds: null,
    piiModelKinds: null,
    containsPii: trustSource ? false : null,
    modelStatus: trustSource ? 'done' : 'pending',
    modelId: ANNOTATION_MODEL,
    categories: topics.categories,
    keywords: topics.keywords,
    shortSummary: topics.shortSummary,
    annotatedAt: trustSource ? duel.createdAt : null,
    updatedAt: duel.createdAt,
  });
}
