import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ExportableConversation } from '../../domain/datasets/exportable';
import {
  type ExportModelFacts,
  type RowContext,
  conversationRow,
  prepareConversation,
  reactionRows,
  voteRow,
} from '../../domain/datasets/conversation-rows';
import type { ComparIaTable, DatasetName, DatasetRow } from '../../domain/datasets/export-columns';
import { type DatasetTier, TIERS_OF, tierColumns, tierFolder } from '../../domain/datasets/dataset-tiers';
import { publicOrderKey, publicRow } from '../../domain/datasets/public-rows';
import { rowContext } from './row-context';
import { type DatasetFileWriter, type DatasetFormat, Utf8Encodings, jsonlFileWriter, parquetFileWriter } from './dataset-writers';
import { type ExportFilters, conversationFilter, modelFilter } from '../../domain/datasets/export-filters';
import { type PreferenceStrength, preferenceRows } from '../../domain/datasets/preference-rows';
import { turnVerdictRows } from '../../domain/datasets/turn-verdict-rows';

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
  /**
   * Rows of a public subset and language shuffled together before they are written
   * (docs/decisions/0008): their order in the files says nothing of the order of their times.
   */
  shuffleRows: number;
}

export interface BuiltFile {
  tier: DatasetTier;
  dataset: DatasetName;
  /** The main language of the file's rows (`und` when unknown): one file set per language. */
  language: string;
  format: DatasetFormat;
  path: string;
}

/** Rows read between two checks of the rows held by all writers. */
const BUDGET_CHECK_ROWS = 256;

/** The files of one tier, dataset and language, and the public rows waiting to be shuffled. */
interface FileSet {
  tier: DatasetTier;
  dataset: DatasetName;
  language: string;
  writers: DatasetFileWriter[];
  /** Public tier only: rows not written yet, with their order key. */
  waiting: { key: number; row: DatasetRow }[];
}

/**
 * Rows of the wanted datasets from batches of exportable conversations, written as they come: one
 * file set per tier, dataset and main language (`<tier>/<dataset>/<language>/train-*.parquet`), so
 * that each card can offer a config per language. compar:IA's tables go to both tiers (the public
 * row made from the gated one), the training subsets to the public one. Public rows wait in windows
 * of `shuffleRows` and are written in an order unrelated to time. The writers of all languages
 * together hold at most about one row group per dataset and tier, and the windows one window per public
 * dataset: past that, the fullest writer writes a smaller group, the fullest window is written early.
 */
export class DatasetBuilder {
  private readonly sets = new Map<string, FileSet>();
  private readonly context: RowContext;
  private readonly keep: (conversation: ExportableConversation) => boolean;
  private readonly modelAllowed: (modelId: string) => boolean;
  private readonly minStrength: PreferenceStrength;
  private readonly wanted: ReadonlySet<DatasetName>;
  private readonly encodings = new Utf8Encodings();
  private readonly heldRowsBudget: number;
  private readonly waitingRowsBudget: number;
  private rowsSinceCheck = 0;

  constructor(private readonly settings: DatasetBuilderSettings) {
    const models = new Map(settings.models);
    this.context = rowContext(settings.salt, models);
    this.keep = conversationFilter(settings.filters);
    this.modelAllowed = modelFilter(settings.filters, models);
    this.minStrength = settings.filters.minPrefStrength ?? 'weak';
    this.wanted = new Set(settings.datasets);
    // About one row group per file set kind (tier and dataset), one window per public dataset.
    const fileSetKinds = settings.datasets.reduce((sum, dataset) => sum + TIERS_OF[dataset].length, 0);
    this.heldRowsBudget = settings.rowGroupRows * Math.max(1, fileSetKinds);
    this.waitingRowsBudget = settings.shuffleRows * Math.max(1, settings.datasets.length);
  }

  add(batch: readonly ExportableConversation[]): void {
    const wants = (name: DatasetName) => this.wanted.has(name);
    const preferenceOptions = {
      minStrength: this.minStrength,
      modelAllowed: this.modelAllowed,
      trainingUse: (modelId: string) => this.context.model(modelId)?.trainingUse ?? ('check_licence' as const),
    };
    const comparia = wants('conversations') || wants('votes') || wants('reactions');
    const training = wants('dpo') || wants('kto') || wants('reward');
    const verdicts = wants('turn_verdicts') || wants('dpo_turns');
    for (const conversation of batch) {
      if (!this.keep(conversation)) continue;
      const prepared = prepareConversation(conversation, this.context);
      const language = fileLanguage(conversation.languages?.[0]);
      const orderKey = publicOrderKey(prepared.pairId);
      if (comparia && this.modelAllowed(conversation.modelA) && this.modelAllowed(conversation.modelB)) {
        const both = (table: ComparIaTable, row: DatasetRow) => {
          this.write('gated', table, language, row, orderKey);
          this.write(
            'public',
            table,
            language,
            publicRow(table, row, { a: prepared.publicMessagesA, b: prepared.publicMessagesB }),
            orderKey,
          );
        };
        if (wants('conversations')) both('conversations', conversationRow(prepared, this.context));
        if (wants('votes')) {
          const vote = voteRow(prepared, this.context);
          if (vote !== null) both('votes', vote);
        }
        if (wants('reactions')) for (const row of reactionRows(prepared, this.context)) both('reactions', row);
      }
      if (training) {
        const rows = preferenceRows(prepared, preferenceOptions);
        // A training row is about one turn: it goes with its turn's language.
        for (const name of ['dpo', 'kto', 'reward'] as const)
          if (wants(name))
            for (const row of rows[name])
              this.write('public', name, typeof row.language === 'string' ? fileLanguage(row.language) : language, row, orderKey);
      }
      if (verdicts) {
        const rows = turnVerdictRows(prepared, preferenceOptions);
        // A verdict is about one turn, as a training row: it goes with its turn's language.
        const languageOf = (row: DatasetRow) => (typeof row.language === 'string' ? fileLanguage(row.language) : language);
        if (wants('turn_verdicts'))
          for (const row of rows.turnVerdicts) this.write('public', 'turn_verdicts', languageOf(row), row, orderKey);
        if (wants('dpo_turns')) for (const row of rows.dpoTurns) this.write('public', 'dpo_turns', languageOf(row), row, orderKey);
      }
    }
  }

  finish(): BuiltFile[] {
    // An empty dataset still gets its (empty) file in each of its tiers, so that the card's config points at something;
    // but not the turn verdicts' subsets, empty wherever visitors gave none: a config of no rows fails Hugging Face's loader.
    for (const dataset of this.settings.datasets.filter((name) => !ONLY_WHEN_FILLED.has(name)))
      for (const tier of TIERS_OF[dataset])
        if (![...this.sets.values()].some((set) => set.tier === tier && set.dataset === dataset)) this.fileSet(tier, dataset, 'und');
    for (const set of this.sets.values()) this.writeWaiting(set);
    const files: BuiltFile[] = [];
    const ordered = [...this.sets.values()].sort(
      (left, right) =>
        this.settings.datasets.indexOf(left.dataset) - this.settings.datasets.indexOf(right.dataset) ||
        TIER_ORDER[left.tier] - TIER_ORDER[right.tier] ||
        (left.language < right.language ? -1 : left.language > right.language ? 1 : 0),
    );
    for (const { tier, dataset, language, writers } of ordered) {
      for (const writer of writers) {
        writer.finish();
        for (const path of writer.paths) files.push({ tier, dataset, language, format: writer.format, path });
      }
    }
    return files;
  }

  /** Gated rows are written in time order; public rows wait to be shuffled with the rows after them. */
  private write(tier: DatasetTier, dataset: DatasetName, language: string, row: DatasetRow, orderKey: number): void {
    const set = this.fileSet(tier, dataset, language);
    if (tier === 'public') {
      set.waiting.push({ key: orderKey, row });
      if (set.waiting.length >= this.settings.shuffleRows) this.writeWaiting(set);
    } else {
      for (const writer of set.writers) writer.add(row);
    }
    if (++this.rowsSinceCheck >= BUDGET_CHECK_ROWS) {
      this.rowsSinceCheck = 0;
      this.keepHeldRowsInBudget();
    }
  }

  /** A window's rows in the order of their keys (a stable sort: one conversation's rows keep theirs). */
  private writeWaiting(set: FileSet): void {
    if (set.waiting.length === 0) return;
    const waiting = set.waiting.sort((left, right) => left.key - right.key);
    set.waiting = [];
    for (const { row } of waiting) for (const writer of set.writers) writer.add(row);
  }

  private fileSet(tier: DatasetTier, dataset: DatasetName, language: string): FileSet {
    const key = `${tier}/${dataset}/${language}`;
    let set = this.sets.get(key);
    if (set === undefined) {
      const folder = join(this.settings.outDir, tierFolder(tier), dataset, language);
      mkdirSync(folder, { recursive: true });
      const { rowGroupRows, fileRows } = this.settings;
      const columns = tierColumns(tier, dataset);
      set = {
        tier,
        dataset,
        language,
        writers: this.settings.formats.map((format) =>
          format === 'parquet'
            ? parquetFileWriter(columns, { folder, rowGroupRows, fileRows }, this.encodings)
            : jsonlFileWriter(join(folder, 'train.jsonl'), columns),
        ),
        waiting: [],
      };
      this.sets.set(key, set);
    }
    return set;
  }

  /**
   * The fullest windows are written early while all of them together hold more than their budget,
   * then the fullest writers write their rows while all of them together hold more than theirs.
   */
  private keepHeldRowsInBudget(): void {
    const sets = [...this.sets.values()];
    let waiting = sets.reduce((sum, set) => sum + set.waiting.length, 0);
    while (waiting > this.waitingRowsBudget) {
      const fullest = sets.reduce((best, set) => (set.waiting.length > best.waiting.length ? set : best));
      waiting -= fullest.waiting.length;
      this.writeWaiting(fullest);
    }
    const all = sets.flatMap((set) => set.writers);
    let held = all.reduce((sum, writer) => sum + writer.pendingRows, 0);
    while (held > this.heldRowsBudget) {
      const fullest = all.reduce((best, writer) => (writer.pendingRows > best.pendingRows ? writer : best));
      held -= fullest.pendingRows;
      fullest.flush();
    }
  }
}

const TIER_ORDER: Readonly<Record<DatasetTier, number>> = { public: 0, gated: 1 };

/** Subsets written only when they have rows (arenas and imports without turn verdicts have none). */
export const ONLY_WHEN_FILLED: ReadonlySet<DatasetName> = new Set(['turn_verdicts', 'dpo_turns']);

/**
 * The folder name of a language: a well-formed language tag, else `und`. Imported files say what
 * they like, and a language becomes a path here: `../x` must never leave the export folder.
 */
export function fileLanguage(language: unknown): string {
  return typeof language === 'string' && /^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/.test(language) ? language : 'und';
}
