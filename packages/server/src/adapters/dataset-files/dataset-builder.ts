import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportableConversation } from '../../db/repositories/dataset.repository';
import {
  type ExportModelFacts,
  type RowContext,
  conversationRow,
  prepareConversation,
  reactionRows,
  voteRow,
} from '../../domain/datasets/conversation-rows';
import { DATASETS, type DatasetName, type DatasetRow } from '../../domain/datasets/export-columns';
import { rowContext } from '../../domain/datasets/row-context';
import { type DatasetFileWriter, type DatasetFormat, Utf8Encodings, jsonlFileWriter, parquetFileWriter } from './dataset-writers';
import { type ExportFilters, conversationFilter, modelFilter } from '../../domain/datasets/export-filters';
import { type PreferenceStrength, preferenceRows } from '../../domain/datasets/preference-rows';

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
    const preferenceOptions = {
      minStrength: this.minStrength,
      modelAllowed: this.modelAllowed,
      trainingUse: (modelId: string) => this.context.model(modelId)?.trainingUse ?? ('check_licence' as const),
    };
    const raw = wants('conversations') || wants('votes') || wants('reactions');
    const training = wants('dpo') || wants('kto') || wants('reward');
    for (const conversation of batch) {
      if (!this.keep(conversation)) continue;
      const prepared = prepareConversation(conversation, this.context);
      if (raw && this.modelAllowed(conversation.modelA) && this.modelAllowed(conversation.modelB)) {
        if (wants('conversations')) add('conversations', conversationRow(prepared, this.context));
        if (wants('votes')) {
          const vote = voteRow(prepared, this.context);
          if (vote !== null) add('votes', vote);
        }
        if (wants('reactions')) for (const row of reactionRows(prepared, this.context)) add('reactions', row);
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
