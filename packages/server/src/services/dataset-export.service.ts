import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { DatasetBuild, ExclusionCounts, ExportableConversation, ExportQuery } from '../db/repositories/dataset.repository';
import type { ExportModelFacts } from '../domain/datasets/conversation-rows';
import { type DatasetBuilderSettings } from '../adapters/dataset-files/dataset-builder';
import { type ExportFilters, conversationFilter, modelFilter } from '../domain/datasets/export-filters';
import { type BatchSink, inlineBuilders, threadedBuilders } from '../adapters/dataset-files/dataset-builder-threads';
import { type DatasetCardInput, buildDatasetCard } from '../domain/datasets/dataset-card';
import { DATASET_NAMES, DATASET_TIER, type DatasetName, type DatasetTier, tierFolder } from '../domain/datasets/export-columns';
import type { DatasetFormat } from '../adapters/dataset-files/dataset-writers';
import { countFileRows } from '../adapters/dataset-files/count-file-rows';

/** Where exports read from: the dataset repository (a port, so tests and benches can wire any store). */
export interface ExportSource {
  exportableConversations(query: ExportQuery): AsyncGenerator<ExportableConversation[]>;
  exclusionCounts(privateCohorts: readonly string[]): Promise<ExclusionCounts>;
  visitorSalt(generate: () => string): Promise<string>;
  /** Where the publication is recorded, for the datasets page. */
  recordBuild(build: DatasetBuild): Promise<void>;
}

/** What to export, as `agora export` takes it. */
export interface DatasetExportRequest extends ExportFilters {
  outDir: string;
  formats: readonly DatasetFormat[];
  datasets: readonly DatasetName[];
  /** The optimised set written into `optimised/` beside the export (`--optimised`): its rows per subset, for the public card. */
  optimisedRows?: Readonly<Record<string, number>> | undefined;
}

export interface DatasetExportSettings {
  privateCohorts: readonly string[];
  /** Conversations read per query. */
  batchSize?: number;
  /** Rows per Parquet row group (memory is about one group per dataset). */
  rowGroupRows?: number;
  /** Rows per Parquet file (`train-00000.parquet`, …). */
  fileRows?: number;
  /**
   * Build the raw and the training subsets in two worker threads while this one reads the store.
   * Faster when cores are free (1.5× at 100k conversations on 2 cores), but each thread has its
   * own heap and modules (peak RSS 750 MB instead of 420 MB there), so it is off by default: the
   * default keeps a 1M export under 500 MB.
   */
  threads?: boolean;
}

export interface ExportedFile {
  dataset: DatasetName;
  /** Main language of its rows (`und`: unknown). */
  language: string;
  format: DatasetFormat;
  path: string;
  rows: number;
}

export interface DatasetExportResult {
  conversationsRead: number;
  files: ExportedFile[];
  /** One card per tier written: `README.md` (public) and `raw/README.md` (gated). */
  cards: { tier: DatasetTier; path: string }[];
}

/** Progress of one export: conversations done and an upper bound of the total. */
export type ExportProgress = (done: number, total: number) => void;

/** The raw subsets and the training subsets are built in separate threads when there are cores for it. */
const DATASET_GROUPS: readonly (readonly DatasetName[])[] = [
  ['conversations', 'votes', 'reactions'],
  ['dpo', 'kto', 'reward'],
];

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
    const salt = await this.source.visitorSalt(() => randomBytes(32).toString('hex'));
    const total = Math.max(0, exclusions.conversations - excludedCount(exclusions));
    const sink = this.openBuilders(request, salt);
    try {
      const keep = conversationFilter(request);
      const modelAllowed = modelFilter(request, this.models);
      const stats = {
        read: 0,
        languages: new Map<string, number>(),
        modelLayer: new Map<string, number>(),
        sources: new Map<string, number>(),
      };
      const query: ExportQuery = {
        privateCohorts: this.settings.privateCohorts,
        from: request.from,
        until: request.until,
        batchSize: this.settings.batchSize ?? 2000,
      };
      let writing: Promise<void> = Promise.resolve();
      for await (const batch of this.source.exportableConversations(query)) {
        for (const conversation of batch) {
          // What the card says of the published conversations (the builders apply the same filters).
          if (keep(conversation) && modelAllowed(conversation.modelA) && modelAllowed(conversation.modelB)) {
            count(stats.languages, conversation.languages?.[0] ?? 'und');
            count(stats.sources, conversation.source);
            // Imported conversations were screened by their publisher, not by this pipeline.
            if (conversation.source === 'arena') count(stats.modelLayer, conversation.modelStatus);
          }
        }
        // The builders write batch k while the store is read for batch k + 1; never more in flight.
        await writing;
        writing = sink.add(batch);
        stats.read += batch.length;
        progress?.(stats.read, Math.max(total, stats.read));
      }
      await writing;
      const files: ExportedFile[] = [];
      for (const file of await sink.finish()) files.push({ ...file, rows: await countFileRows(file.path) });
      const card: DatasetCardInput = {
        files,
        outDir: request.outDir,
        exclusions,
        languages: stats.languages,
        modelLayer: stats.modelLayer,
        sources: stats.sources,
        request,
        privateCohortCount: this.settings.privateCohorts.length,
        exportedAt: this.now().toISOString(),
        optimisedRows: request.optimisedRows,
        models: [...this.models].map(([id, facts]) => ({
          id,
          license: facts.license,
          openWeights: facts.openWeights,
          trainingUse: facts.trainingUse,
        })),
      };
      const cards = (['public', 'raw'] as const)
        .filter((tier) => request.datasets.some((dataset) => DATASET_TIER[dataset] === tier))
        .map((tier) => {
          const path = join(request.outDir, tierFolder(tier), 'README.md');
          writeFileSync(path, buildDatasetCard(card, tier));
          return { tier, path };
        });
      await this.source.recordBuild({
        id: randomBytes(8).toString('hex'),
        kind: 'export',
        createdAt: card.exportedAt,
        summary: {
          conversations: [...stats.languages.values()].reduce((sum, count) => sum + count, 0),
          formats: [...request.formats],
          license: request.datasetLicense ?? 'other',
          // Rows of a dataset in its first format (the other formats hold the same rows).
          datasets: request.datasets.map((dataset) => ({
            name: dataset,
            rows: files
              .filter((file) => file.dataset === dataset && file.format === request.formats[0])
              .reduce((sum, file) => sum + file.rows, 0),
          })),
          languages: [...stats.languages]
            .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
            .map(([language, conversations]) => ({ language, conversations })),
        },
      });
      return { conversationsRead: stats.read, files, cards };
    } finally {
      await sink.close();
    }
  }

  private openBuilders(request: DatasetExportRequest, salt: string): BatchSink {
    const settings = (datasets: readonly DatasetName[]): DatasetBuilderSettings => ({
      outDir: request.outDir,
      formats: request.formats,
      datasets,
      filters: {
        languages: request.languages,
        categories: request.categories,
        licenses: request.licenses,
        excludeLicenses: request.excludeLicenses,
        openWeightsOnly: request.openWeightsOnly,
        minPrefStrength: request.minPrefStrength,
      },
      salt,
      models: [...this.models],
      rowGroupRows: this.settings.rowGroupRows ?? 2000,
      fileRows: this.settings.fileRows ?? 100_000,
    });
    const ordered = DATASET_NAMES.filter((name) => request.datasets.includes(name));
    const threads = this.settings.threads === true && availableParallelism() > 1;
    if (!threads) return inlineBuilders(settings(ordered));
    return threadedBuilders(
      DATASET_GROUPS.map((group) => ordered.filter((name) => group.includes(name)))
        .filter((group) => group.length > 0)
        .map(settings),
    );
  }
}

function excludedCount(exclusions: ExclusionCounts): number {
  return (
    exclusions.notScreened +
    exclusions.screeningFailed +
    exclusions.privateCohort +
    exclusions.reviewerExcluded +
    exclusions.flagged +
    exclusions.reportedNotReviewed
  );
}

function count(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
