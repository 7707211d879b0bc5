import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportableConversation } from '../../db/repositories/dataset.repository';
import { type ExportModelFacts, type RowContext, conversationRow, prepareConversation, reactionRows, voteRow } from './conversation-rows';
import { DATASETS, type DatasetName, type DatasetRow } from './dataset-definitions';
import { type DatasetFileWriter, type DatasetFormat, Utf8Encodings, jsonlFileWriter, parquetFileWriter } from './dataset-writers';
import { type PreferenceStrength, preferenceRows } from './preference-rows';

/** The filters of one export (see `agora export`). */
export interface ExportFilters {
  languages?: readonly string[] | undefined;
  categories?: readonly string[] | undefined;
  licenses?: readonly string[] | undefined;
  excludeLicenses?: readonly string[] | undefined;
  openWeightsOnly?: boolean | undefined;
  minPrefStrength?: PreferenceStrength | undefined;
}

/** Everything a builder needs, as plain data so that it can be handed to a worker thread. */
export interface DatasetBuilderSettings {
  outDir: string;
  formats: readonly DatasetFormat[];
  /** The datasets this builder writes. */
  datasets: readonly DatasetName[];
  filters: ExportFilters;
  /** The deployment's secret salt of public ids. */
  salt: string;
  models: readonly [string, ExportModelFacts][];
  rowGroupRows: number;
  fileRows: number;
}

export interface BuiltFile {
  dataset: DatasetName;
  format: DatasetFormat;
  path: string;
}

/** Rows of the wanted datasets from batches of exportable conversations, written as they come. */
export class DatasetBuilder {
  private readonly writers = new Map<DatasetName, DatasetFileWriter[]>();
  private readonly context: RowContext;
  private readonly keep: (conversation: ExportableConversation) => boolean;
  private readonly modelAllowed: (modelId: string) => boolean;
  private readonly minStrength: PreferenceStrength;

  constructor(settings: DatasetBuilderSettings) {
    const models = new Map(settings.models);
    this.context = rowContext(settings.salt, models);
    this.keep = conversationFilter(settings.filters);
    this.modelAllowed = modelFilter(settings.filters, models);
    this.minStrength = settings.filters.minPrefStrength ?? 'weak';
    const encodings = new Utf8Encodings();
    for (const dataset of settings.datasets) {
      const folder = join(settings.outDir, dataset);
      mkdirSync(folder, { recursive: true });
      this.writers.set(
        dataset,
        settings.formats.map((format) =>
          format === 'parquet'
            ? parquetFileWriter(
                DATASETS[dataset].columns,
                { folder, rowGroupRows: settings.rowGroupRows, fileRows: settings.fileRows },
                encodings,
              )
            : jsonlFileWriter(join(folder, 'train.jsonl')),
        ),
      );
    }
  }

  add(batch: readonly ExportableConversation[]): void {
    const wants = (name: DatasetName) => this.writers.has(name);
    const add = (name: DatasetName, row: DatasetRow) => {
      for (const writer of this.writers.get(name)!) writer.add(row);
    };
    const preferenceOptions = { minStrength: this.minStrength, modelAllowed: this.modelAllowed };
    const raw = wants('conversations') || wants('votes') || wants('reactions');
    const training = wants('dpo') || wants('kto') || wants('reward');
    for (const conversation of batch) {
      if (!this.keep(conversation)) continue;
      const prepared = prepareConversation(conversation, this.context);
      if (raw && this.modelAllowed(conversation.modelA) && this.modelAllowed(conversation.modelB)) {
        if (wants('conversations')) add('conversations', conversationRow(prepared, this.context));
        if (wants('votes')) {
          const vote = voteRow(prepared);
          if (vote !== null) add('votes', vote);
        }
        if (wants('reactions')) for (const row of reactionRows(prepared)) add('reactions', row);
      }
      if (training) {
        const rows = preferenceRows(prepared, preferenceOptions);
        for (const name of ['dpo', 'kto', 'reward'] as const) if (wants(name)) for (const row of rows[name]) add(name, row);
      }
    }
  }

  finish(): BuiltFile[] {
    const files: BuiltFile[] = [];
    for (const [dataset, writers] of this.writers) {
      for (const writer of writers) {
        writer.finish();
        for (const path of writer.paths) files.push({ dataset, format: writer.format, path });
      }
    }
    return files;
  }
}

function rowContext(salt: string, models: ReadonlyMap<string, ExportModelFacts>): RowContext {
  const visitors = new Map<string, string>();
  return {
    model: (modelId) => models.get(modelId),
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

/** Language and topic filters, on the conversation as a whole. */
export function conversationFilter(filters: ExportFilters): (conversation: ExportableConversation) => boolean {
  const languages = filters.languages && filters.languages.length > 0 ? new Set(filters.languages) : undefined;
  const categories = filters.categories && filters.categories.length > 0 ? new Set(filters.categories) : undefined;
  return (conversation) =>
    (languages === undefined || languages.has(conversation.languages?.[0] ?? '')) &&
    (categories === undefined || (conversation.categories ?? []).some((category) => categories.has(category)));
}

/** Licence filters: models outside the catalogue have no known licence, so an allow-list leaves them out. */
export function modelFilter(filters: ExportFilters, models: ReadonlyMap<string, ExportModelFacts>): (modelId: string) => boolean {
  const allowed =
    filters.licenses && filters.licenses.length > 0 ? new Set(filters.licenses.map((license) => license.toLowerCase())) : undefined;
  const excluded = new Set((filters.excludeLicenses ?? []).map((license) => license.toLowerCase()));
  if (allowed === undefined && excluded.size === 0 && !filters.openWeightsOnly) return () => true;
  const cache = new Map<string, boolean>();
  return (modelId) => {
    let verdict = cache.get(modelId);
    if (verdict === undefined) {
      const facts = models.get(modelId);
      const license = facts?.license.toLowerCase();
      verdict =
        (allowed === undefined || (license !== undefined && allowed.has(license))) &&
        (license === undefined || !excluded.has(license)) &&
        (!filters.openWeightsOnly || facts?.openWeights === true);
      cache.set(modelId, verdict);
    }
    return verdict;
  };
}
