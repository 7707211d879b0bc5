import type {
  ComparIaImportRepository,
  ImportedDuel,
  ImportedReaction,
  ImportedVote,
  StoredDuel,
  StoredTopics,
} from '../db/repositories/comparia-import.repository';
import type { Repositories } from '../db/unit-of-work';
import { VoteFileError } from '../adapters/vote-files/vote-file-error';
import { COMPARIA_SOURCE, mapRowOnDuel, type ComparIaTopics } from '../domain/comparia/comparia-rows';
import type { ImportedTurnVerdict, MappedArenaRow } from '../domain/comparia/comparia-arena-rows';
import { ComparIaRowError } from '../domain/comparia/comparia-values';
import type { ComparIaImportDataset, ImportedFileSummary } from './comparia-import-summary';

// How `agora import comparia` writes one batch of mapped rows, in one transaction: each row compared
// with what the store holds, then the batch's inserts as a few multi-row statements.

const ANNOTATION_MODEL = 'comparia';

/** A mapped row and where it was read. */
export interface PendingRow {
  row: MappedArenaRow;
  location: string;
}

/** A row that writes: a conversation (with its turn's verdict, from the arena file), a vote or a reaction. */
type WritableRow = Extract<MappedArenaRow, { duel: ImportedDuel }>;
type ConversationRow = Extract<WritableRow, { topics: ComparIaTopics }>;

/** What the store already holds of the batch's rows; the batch's own rows are added as they are applied. */
interface StoredRows {
  known: Map<string, StoredDuel>;
  votes: Map<string, ImportedVote>;
  reactions: Map<string, ImportedReaction>;
  verdicts: Map<string, ImportedTurnVerdict>;
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

/** Writes one batch, counting each row in `summary`. */
export async function applyBatch(
  repositories: Repositories,
  rawBatch: PendingRow[],
  summary: ImportedFileSummary,
  trustSource: boolean,
): Promise<void> {
  const imports = repositories.comparIaImport;
  const batch = await joinStoredConversations(imports, rawBatch, summary.path);
  const rows = batch.flatMap(({ row }) => ('skip' in row || 'joins' in row ? [] : [row]));
  for (const { row } of batch) if ('skip' in row) summary.skipped[row.skip] = (summary.skipped[row.skip] ?? 0) + 1;
  const stored = await readStoredRows(imports, summary.dataset, rows);
  const writes: BatchWrites = { duels: new Map(), votes: [], voted: [], reactions: new Map(), topics: [], verdicts: new Map() };
  const changesBefore = summary.inserted + summary.updated;
  for (const row of rows) {
    if (row.dataset === 'conversations') {
      await applyConversation(imports, stored, writes, row, summary);
      continue;
    }
    const duel = await ensureDuel(imports, stored.known, writes, row.duel, summary);
    if (row.dataset === 'votes') applyVote(stored.votes, writes, duel, row.vote, summary);
    else applyReaction(stored.reactions, writes, row.reaction, summary);
  }
  await writeBatch(imports, writes);
  const topicsSaved = await saveChangedTopics(repositories, writes.topics, trustSource);
  // Imported votes carry their own (past) times, and replaced conversations and their topics
  // (stamped with the conversation's time) change votes already read: a live leaderboard must read
  // every vote again rather than follow changes by time.
  if (summary.inserted + summary.updated > changesBefore || topicsSaved > 0) await repositories.feedback.bumpRankingEpoch();
}

/** The duels the batch's rows name, and what the store holds of the file's kind of row for them. */
async function readStoredRows(
  imports: ComparIaImportRepository,
  dataset: ComparIaImportDataset,
  rows: readonly WritableRow[],
): Promise<StoredRows> {
  const known = await imports.findDuels(COMPARIA_SOURCE, [...new Set(rows.map((row) => row.duel.externalId))]);
  const duelIds = [...new Set(rows.map((row) => row.duel.id))];
  const votes = dataset === 'votes' ? await imports.findVotes(duelIds) : new Map<string, ImportedVote>();
  const reactions = new Map<string, ImportedReaction>();
  if (dataset === 'reactions') for (const reaction of await imports.findReactions(duelIds)) reactions.set(reactionKey(reaction), reaction);
  const verdicts = dataset === 'arena' ? await imports.findTurnVerdicts(duelIds) : new Map<string, ImportedTurnVerdict>();
  return { known, votes, reactions, verdicts };
}

/** A conversations row, and from the arena file its turn's verdict: counted once, as the verdict's change or the conversation's. */
async function applyConversation(
  imports: ComparIaImportRepository,
  stored: StoredRows,
  writes: BatchWrites,
  row: ConversationRow,
  summary: ImportedFileSummary,
): Promise<void> {
  const outcome = await putConversation(imports, stored.known, writes, row.duel);
  writes.topics.push({ duel: row.duel, topics: row.topics });
  if (row.verdict === undefined) {
    summary[outcome] += 1;
    return;
  }
  // An arena row is its turn's verdict (its conversation repeats on every row of the conversation).
  const key = `${row.verdict.duelId}|${row.verdict.turn}`;
  const existing = stored.verdicts.get(key);
  if (existing !== undefined && sameRecord(existing, row.verdict)) summary[outcome === 'present' ? 'present' : 'updated'] += 1;
  else {
    summary[existing === undefined && outcome !== 'updated' ? 'inserted' : 'updated'] += 1;
    stored.verdicts.set(key, row.verdict);
    writes.verdicts.set(key, row.verdict);
  }
}

/** A vote row: the conversation's first vote is written and marks it voted; another one is skipped. */
function applyVote(
  votes: Map<string, ImportedVote>,
  writes: BatchWrites,
  duel: StoredDuel,
  rowVote: ImportedVote,
  summary: ImportedFileSummary,
): void {
  const vote = { ...rowVote, mode: duel.mode };
  const existing = votes.get(vote.duelId);
  if (existing === undefined) {
    votes.set(vote.duelId, vote);
    writes.votes.push(vote);
    const created = writes.duels.get(duel.externalId);
    if (created) created.status = 'voted';
    else writes.voted.push(vote.duelId);
    duel.status = 'voted';
    summary.inserted += 1;
  } else if (sameRecord(existing, vote)) summary.present += 1;
  else summary.skipped['another vote for this conversation'] = (summary.skipped['another vote for this conversation'] ?? 0) + 1;
}

/** A reaction row: written unless the store holds that answer's reaction exactly so. */
function applyReaction(
  reactions: Map<string, ImportedReaction>,
  writes: BatchWrites,
  reaction: ImportedReaction,
  summary: ImportedFileSummary,
): void {
  const key = reactionKey(reaction);
  const existing = reactions.get(key);
  if (existing !== undefined && sameRecord(existing, reaction)) {
    summary.present += 1;
    return;
  }
  summary[existing === undefined ? 'inserted' : 'updated'] += 1;
  reactions.set(key, reaction);
  writes.reactions.set(key, reaction);
}

/** The batch's gathered inserts and updates, a few statements each. */
async function writeBatch(imports: ComparIaImportRepository, writes: BatchWrites): Promise<void> {
  await imports.insertDuels([...writes.duels.values()]);
  await imports.insertVotes(writes.votes);
  await imports.markVoted(writes.voted);
  await imports.upsertReactions([...writes.reactions.values()]);
  await imports.upsertTurnVerdicts([...writes.verdicts.values()]);
}

/** Saves the topics of the batch's conversations that changed; how many were saved. */
async function saveChangedTopics(repositories: Repositories, topicsOfDuels: BatchWrites['topics'], trustSource: boolean): Promise<number> {
  const storedTopics =
    topicsOfDuels.length > 0
      ? await repositories.comparIaImport.findTopics(topicsOfDuels.map(({ duel }) => duel.id))
      : new Map<string, StoredTopics>();
  let topicsSaved = 0;
  for (const { duel, topics } of topicsOfDuels) {
    const stored = storedTopics.get(duel.id);
    // Agora's own post-processing annotated it since: left alone
    if (stored !== undefined && stored.modelId !== ANNOTATION_MODEL) continue;
    if (stored !== undefined && sameRecord(stored, storedTopicsOf(duel, topics, trustSource))) continue;
    await saveTopics(repositories, duel, topics, trustSource);
    topicsSaved += 1;
  }
  return topicsSaved;
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
