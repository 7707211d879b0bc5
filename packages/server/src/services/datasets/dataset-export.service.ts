import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExclusionCounts, ExportableConversation, ExportQuery } from '../../db/repositories/dataset.repository';
import { type ExportModelFacts, type RowContext, conversationRow, prepareConversation, reactionRows, voteRow } from './conversation-rows';
import { type DatasetCardInput, buildDatasetCard } from './dataset-card';
import { DATASETS, type DatasetName } from './dataset-definitions';
import { type DatasetFileWriter, type DatasetFormat, Utf8Encodings, jsonlFileWriter, parquetFileWriter } from './dataset-writers';
import { countFileRows } from './count-file-rows';
import { type PreferenceStrength, preferenceRows } from './preference-rows';

/** Where exports read from: the dataset repository (a port, so tests and benches can wire any store). */
export interface ExportSource {
  exportableConversations(query: ExportQuery): AsyncGenerator<ExportableConversation[]>;
  exclusionCounts(privateCohorts: readonly string[]): Promise<ExclusionCounts>;
  visitorSalt(generate: () => string): Promise<string>;
}

/** What to export, as `agora export` takes it. */
export interface DatasetExportRequest {
  outDir: string;
  formats: readonly DatasetFormat[];
  datasets: readonly DatasetName[];
  /** Keep conversations whose main language is one of these. */
  languages?: readonly string[] | undefined;
  /** Keep conversations with at least one of these topics. */
  categories?: readonly string[] | undefined;
  /** ISO-8601 bounds on the conversation's start: from inclusive, until exclusive. */
  from?: string | undefined;
  until?: string | undefined;
  /** Keep only answers of models under these licences (case-insensitive). */
  licenses?: readonly string[] | undefined;
  excludeLicenses?: readonly string[] | undefined;
  openWeightsOnly?: boolean | undefined;
  minPrefStrength?: PreferenceStrength | undefined;
  /** The licence the card declares for the published data (Hugging Face id). */
  datasetLicense?: string | undefined;
}

export interface DatasetExportSettings {
  privateCohorts: readonly string[];
  /** Conversations read per query. */
  batchSize?: number;
  /** Rows per Parquet row group (memory is about one group per dataset). */
  rowGroupRows?: number;
  /** Rows per Parquet file (`train-00000.parquet`, …). */
  fileRows?: number;
}

export interface ExportedFile {
  dataset: DatasetName;
  format: DatasetFormat;
  path: string;
  rows: number;
}

export interface DatasetExportResult {
  conversationsRead: number;
  files: ExportedFile[];
  cardPath: string;
}

/** Progress of one export: conversations done and an upper bound of the total. */
export type ExportProgress = (done: number, total: number) => void;

type Writers = Map<DatasetName, DatasetFileWriter[]>;

/** Builds the open datasets of docs/datasets.md from the store: raw (compar:IA columns) and TRL-ready. */
export class DatasetExportService {
  constructor(
    private readonly source: ExportSource,
    private readonly models: ReadonlyMap<string, ExportModelFacts>,
    private readonly settings: DatasetExportSettings,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async export(request: DatasetExportRequest, progress?: ExportProgress): Promise<DatasetExportResult> {
    const exclusions = await this.source.exclusionCounts(this.settings.privateCohorts);
    const context = await this.rowContext();
    const writers = this.openWriters(request);
    const filter = conversationFilter(request);
    const modelAllowed = modelFilter(request, this.models);
    const preferenceOptions = { minStrength: request.minPrefStrength ?? 'weak', modelAllowed };
    const wants = (name: DatasetName) => writers.has(name);
    const add = (name: DatasetName, row: Record<string, unknown>) => {
      for (const writer of writers.get(name)!) writer.add(row);
    };
    const stats = { read: 0, languages: new Map<string, number>(), modelLayer: new Map<string, number>() };
    const total = Math.max(0, exclusions.conversations - excludedCount(exclusions));
    const query: ExportQuery = { privateCohorts: this.settings.privateCohorts, from: request.from, until: request.until, batchSize: this.settings.batchSize ?? 2000 };
    for await (const batch of this.source.exportableConversations(query)) {
      for (const conversation of batch) {
        stats.read++;
        if (!filter(conversation)) continue;
        const bothAllowed = modelAllowed(conversation.modelA) && modelAllowed(conversation.modelB);
        const prepared = prepareConversation(conversation, context);
        if (bothAllowed) {
          count(stats.languages, conversation.languages?.[0] ?? 'und');
          count(stats.modelLayer, conversation.modelStatus);
          if (wants('conversations')) add('conversations', conversationRow(prepared, context));
          if (wants('votes')) {
            const vote = voteRow(prepared);
            if (vote !== null) add('votes', vote);
          }
          if (wants('reactions')) for (const row of reactionRows(prepared)) add('reactions', row);
        }
        if (wants('dpo') || wants('kto') || wants('reward')) {
          const rows = preferenceRows(prepared, preferenceOptions);
          for (const name of ['dpo', 'kto', 'reward'] as const) if (wants(name)) for (const row of rows[name]) add(name, row);
        }
      }
      progress?.(stats.read, Math.max(total, stats.read));
    }
    const files: ExportedFile[] = [];
    for (const [dataset, datasetWriters] of writers) {
      for (const writer of datasetWriters) {
        writer.finish();
        for (const path of writer.paths) files.push({ dataset, format: writer.format, path, rows: await countFileRows(path) });
      }
    }
    const card: DatasetCardInput = {
      files,
      outDir: request.outDir,
      exclusions,
      languages: stats.languages,
      modelLayer: stats.modelLayer,
      request,
      privateCohortCount: this.settings.privateCohorts.length,
      exportedAt: this.now().toISOString(),
    };
    const cardPath = join(request.outDir, 'README.md');
    writeFileSync(cardPath, buildDatasetCard(card));
    return { conversationsRead: stats.read, files, cardPath };
  }

  private async rowContext(): Promise<RowContext> {
    const salt = await this.source.visitorSalt(() => randomBytes(32).toString('hex'));
    const visitors = new Map<string, string>();
    return {
      model: (modelId) => this.models.get(modelId),
      sideIds: (duelId) => {
        const digest = createHmac('sha256', salt).update(`conversation-pair\0${duelId}`).digest('hex');
        return { a: digest.slice(0, 32), b: digest.slice(32) };
      },
      visitorId: (visitorHash) => {
        let id = visitors.get(visitorHash);
        if (id === undefined) {
          id = createHmac('sha256', salt).update(`visitor\0${visitorHash}`).digest('hex');
          // Visitors come back, but memory must stay bounded on any store: forget them all now and then.
          if (visitors.size >= 100_000) visitors.clear();
          visitors.set(visitorHash, id);
        }
        return id;
      },
    };
  }

  private openWriters(request: DatasetExportRequest): Writers {
    const writers: Writers = new Map();
    const encodings = new Utf8Encodings();
    for (const dataset of request.datasets) {
      const folder = join(request.outDir, dataset);
      mkdirSync(folder, { recursive: true });
      writers.set(
        dataset,
        request.formats.map((format) =>
          format === 'parquet'
            ? parquetFileWriter(DATASETS[dataset].columns, { folder, rowGroupRows: this.settings.rowGroupRows ?? 2000, fileRows: this.settings.fileRows ?? 100_000 }, encodings)
            : jsonlFileWriter(join(folder, 'train.jsonl')),
        ),
      );
    }
    return writers;
  }
}

function excludedCount(exclusions: ExclusionCounts): number {
  return exclusions.notScreened + exclusions.screeningFailed + exclusions.privateCohort + exclusions.reviewerExcluded + exclusions.flagged + exclusions.reportedNotReviewed;
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** Language and topic filters, on the conversation as a whole. */
function conversationFilter(request: DatasetExportRequest): (conversation: ExportableConversation) => boolean {
  const languages = request.languages && request.languages.length > 0 ? new Set(request.languages) : undefined;
  const categories = request.categories && request.categories.length > 0 ? new Set(request.categories) : undefined;
  return (conversation) =>
    (languages === undefined || languages.has(conversation.languages?.[0] ?? '')) &&
    (categories === undefined || (conversation.categories ?? []).some((category) => categories.has(category)));
}

/** Licence filters: models outside the catalogue have no known licence, so an allow-list leaves them out. */
function modelFilter(request: DatasetExportRequest, models: ReadonlyMap<string, ExportModelFacts>): (modelId: string) => boolean {
  const allowed = request.licenses && request.licenses.length > 0 ? new Set(request.licenses.map((license) => license.toLowerCase())) : undefined;
  const excluded = new Set((request.excludeLicenses ?? []).map((license) => license.toLowerCase()));
  if (allowed === undefined && excluded.size === 0 && !request.openWeightsOnly) return () => true;
  const cache = new Map<string, boolean>();
  return (modelId) => {
    let verdict = cache.get(modelId);
    if (verdict === undefined) {
      const facts = models.get(modelId);
      const license = facts?.license.toLowerCase();
      verdict =
        (allowed === undefined || (license !== undefined && allowed.has(license))) &&
        (license === undefined || !excluded.has(license)) &&
        (!request.openWeightsOnly || facts?.openWeights === true);
      cache.set(modelId, verdict);
    }
    return verdict;
  };
}
