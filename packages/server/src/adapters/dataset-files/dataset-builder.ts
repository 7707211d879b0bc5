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
import { DATASETS, DATASET_TIER, type DatasetName, type DatasetRow, tierFolder } from '../../domain/datasets/export-columns';
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
  /** The main language of the file's rows (`und` when unknown): one file set per language. */
  language: string;
  format: DatasetFormat;
  path: string;
}

/** Rows read between two checks of the rows held by all writers. */
const BUDGET_CHECK_ROWS = 256;

/**
 * Rows of the wanted datasets from batches of exportable conversations, written as they come: one
 * file set per dataset and main language (`<tier folder>/<dataset>/<language>/train-*.parquet`), so
 * that the card can offer a config per language. The writers of all languages together hold at
 * most about one row group per dataset: past that, the fullest writer writes a smaller group.
 */
export class DatasetBuilder {
  private readonly writers = new Map<string, { dataset: DatasetName; language: string; writers: DatasetFileWriter[] }>();
  private readonly context: RowContext;
  private readonly keep: (conversation: ExportableConversation) => boolean;
  private readonly modelAllowed: (modelId: string) => boolean;
  private readonly minStrength: PreferenceStrength;
  private readonly wanted: ReadonlySet<DatasetName>;
  private readonly encodings = new Utf8Encodings();
  private readonly heldRowsBudget: number;
  private rowsSinceCheck = 0;

  constructor(private readonly settings: DatasetBuilderSettings) {
    const models = new Map(settings.models);
    this.context = rowContext(settings.salt, models);
    this.keep = conversationFilter(settings.filters);
    this.modelAllowed = modelFilter(settings.filters, models);
    this.minStrength = settings.filters.minPrefStrength ?? 'weak';
    this.wanted = new Set(settings.datasets);
    this.heldRowsBudget = settings.rowGroupRows * Math.max(1, settings.datasets.length);
  }

  add(batch: readonly ExportableConversation[]): void {
    const wants = (name: DatasetName) => this.wanted.has(name);
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
      const language = fileLanguage(conversation.languages?.[0]);
      if (raw && this.modelAllowed(conversation.modelA) && this.modelAllowed(conversation.modelB)) {
        if (wants('conversations')) this.write('conversations', language, conversationRow(prepared, this.context));
        if (wants('votes')) {
          const vote = voteRow(prepared, this.context);
          if (vote !== null) this.write('votes', language, vote);
        }
        if (wants('reactions')) for (const row of reactionRows(prepared, this.context)) this.write('reactions', language, row);
      }
      if (training) {
        const rows = preferenceRows(prepared, preferenceOptions);
        // A training row is about one turn: it goes with its turn's language.
        for (const name of ['dpo', 'kto', 'reward'] as const)
          if (wants(name))
            for (const row of rows[name]) this.write(name, typeof row.language === 'string' ? fileLanguage(row.language) : language, row);
      }
    }
  }

  finish(): BuiltFile[] {
    // An empty dataset still gets its (empty) file, so that the card's config points at something.
    for (const dataset of this.settings.datasets)
      if (![...this.writers.values()].some((set) => set.dataset === dataset)) this.writersOf(dataset, 'und');
    const files: BuiltFile[] = [];
    const ordered = [...this.writers.values()].sort(
      (left, right) =>
        this.settings.datasets.indexOf(left.dataset) - this.settings.datasets.indexOf(right.dataset) ||
        (left.language < right.language ? -1 : left.language > right.language ? 1 : 0),
    );
    for (const { dataset, language, writers } of ordered) {
      for (const writer of writers) {
        writer.finish();
        for (const path of writer.paths) files.push({ dataset, language, format: writer.format, path });
      }
    }
    return files;
  }

  private write(dataset: DatasetName, language: string, row: DatasetRow): void {
    for (const writer of this.writersOf(dataset, language)) writer.add(row);
    if (++this.rowsSinceCheck >= BUDGET_CHECK_ROWS) {
      this.rowsSinceCheck = 0;
      this.keepHeldRowsInBudget();
    }
  }

  private writersOf(dataset: DatasetName, language: string): DatasetFileWriter[] {
    const key = `${dataset}/${language}`;
    let set = this.writers.get(key);
    if (set === undefined) {
      const folder = join(this.settings.outDir, tierFolder(DATASET_TIER[dataset]), dataset, language);
      mkdirSync(folder, { recursive: true });
      const { rowGroupRows, fileRows } = this.settings;
      set = {
        dataset,
        language,
        writers: this.settings.formats.map((format) =>
          format === 'parquet'
            ? parquetFileWriter(DATASETS[dataset].columns, { folder, rowGroupRows, fileRows }, this.encodings)
            : jsonlFileWriter(join(folder, 'train.jsonl'), DATASETS[dataset].columns),
        ),
      };
      this.writers.set(key, set);
    }
    return set.writers;
  }

  /** The fullest writers write their rows early while all of them together hold more than the budget. */
  private keepHeldRowsInBudget(): void {
    const all = [...this.writers.values()].flatMap((set) => set.writers);
    let held = all.reduce((sum, writer) => sum + writer.pendingRows, 0);
    while (held > this.heldRowsBudget) {
      const fullest = all.reduce((best, writer) => (writer.pendingRows > best.pendingRows ? writer : best));
      held -= fullest.pendingRows;
      fullest.flush();
    }
  }
}

/**
 * The folder name of a language: a well-formed language tag, else `und`. Imported files say what
 * they like, and a language becomes a path here: `../x` must never leave the export folder.
 */
export function fileLanguage(language: unknown): string {
  return typeof language === 'string' && /^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/.test(language) ? language : 'und';
}
