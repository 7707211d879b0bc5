import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import type { DatasetBuild, ExclusionCounts, ExportableConversation, ExportQuery } from '../db/repositories/dataset.repository';
import type { ExportModelFacts } from '../domain/datasets/conversation-rows';
import { type DatasetBuilderSettings } from '../adapters/dataset-files/dataset-builder';
import { type ExportFilters, conversationFilter, modelFilter } from '../domain/datasets/export-filters';
import { type BatchSink, inlineBuilders, threadedBuilders } from '../adapters/dataset-files/dataset-builder-threads';
import { buildDatasetCard } from '../domain/datasets/dataset-card';
import type { DatasetCardInput } from '../domain/datasets/dataset-card-input';
import { DATASET_NAMES, type DatasetName } from '../domain/datasets/export-columns';
import { DATASET_TIERS, type DatasetTier, TIERS_OF, tierFolder } from '../domain/datasets/dataset-tiers';
import type { DatasetFormat } from '../adapters/dataset-files/dataset-writers';
import { countFileRows, writeDatasetCard } from '../adapters/dataset-files/dataset-files';
import { fileBytes, previewRows } from '../adapters/dataset-files/published-files';

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
  /** Rows of a public subset and language shuffled together (docs/decisions/0008; default 2,000). */
  shuffleRows?: number;
  /**
   * Build the raw and the training subsets in two worker threads while this one reads the store.
   * Faster when cores are free (1.5× at 100k conversations on 2 cores), but each thread has its
   * own heap and modules (peak RSS 750 MB instead of 420 MB there), so it is off by default: the
   * default keeps a 1M export under 500 MB.
   */
  threads?: boolean;
}

export interface ExportedFile {
  tier: DatasetTier;
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
  /** One card per tier written: `public/README.md` and `gated/README.md`. */
  cards: { tier: DatasetTier; path: string }[];
}

/** Progress of one export: conversations done and an upper bound of the total. */
export type ExportProgress = (done: number, total: number) => void;

/** compar:IA's subsets (both tiers) and the training subsets are built in separate threads when there are cores for it. */
const DATASET_GROUPS: readonly (readonly DatasetName[])[] = [
  ['conversations', 'votes', 'reactions'],
  ['dpo', 'kto', 'reward', 'turn_verdicts', 'dpo_turns'],
];

/**
 * Builds the open datasets of docs/datasets.md from the store: a public and a gated dataset, each in
 * a folder of its own with its card (docs/decisions/0008).
 */
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
      const stats = await this.readInto(sink, request, (done) => progress?.(done, Math.max(total, done)));
      const files: ExportedFile[] = [];
      for (const file of await sink.finish()) files.push({ ...file, rows: await countFileRows(file.path) });
      // Tier by tier (a stable sort: formats and shards keep their order), whether the builders ran in threads or not.
      files.sort(
        (left, right) =>
          DATASET_TIERS.indexOf(left.tier) - DATASET_TIERS.indexOf(right.tier) ||
          DATASET_NAMES.indexOf(left.dataset) - DATASET_NAMES.indexOf(right.dataset) ||
          (left.language < right.language ? -1 : left.language > right.language ? 1 : 0),
      );
      const card: DatasetCardInput = {
        ...stats,
        files,
        outDir: request.outDir,
        exclusions,
        request,
        shuffleRows: this.shuffleRows,
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
      const cards = DATASET_TIERS.filter((tier) => request.datasets.some((dataset) => TIERS_OF[dataset].includes(tier))).map((tier) => {
        const path = join(request.outDir, tierFolder(tier), 'README.md');
        writeDatasetCard(path, buildDatasetCard(card, tier));
        return { tier, path };
      });
      const build = exportBuild(request, files, stats.languages, card.exportedAt);
      await this.source.recordBuild({
        ...build,
        summary: { ...build.summary, ...(await publicFolder(request.outDir, files)) },
      } as DatasetBuild);
      return { conversationsRead: stats.read, files, cards };
    } finally {
      await sink.close();
    }
  }

  private get shuffleRows(): number {
    return this.settings.shuffleRows ?? 2000;
  }

  /** Reads the store into the builders, and counts what the cards say of the published conversations. */
  private async readInto(sink: BatchSink, request: DatasetExportRequest, progress: (done: number) => void): Promise<ExportStats> {
    const keep = conversationFilter(request);
    const modelAllowed = modelFilter(request, this.models);
    const stats: ExportStats = {
      read: 0,
      languages: new Map(),
      modelLayer: new Map(),
      sources: new Map(),
      trustedFromSource: new Map(),
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
        // The builders apply the same filters.
        if (keep(conversation) && modelAllowed(conversation.modelA) && modelAllowed(conversation.modelB)) {
          count(stats.languages, conversation.languages?.[0] ?? 'und');
          count(stats.sources, conversation.source);
          // An import trusted as screened (`--trust-source`) never went through this arena's layers.
          if (conversation.screenedBy === 'agora') count(stats.modelLayer, conversation.modelStatus);
          else count(stats.trustedFromSource, conversation.source);
        }
      }
      // The builders write batch k while the store is read for batch k + 1; never more in flight.
      await writing;
      writing = sink.add(batch);
      stats.read += batch.length;
      progress(stats.read);
    }
    await writing;
    return stats;
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
      shuffleRows: this.shuffleRows,
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

/** What the cards say of the published conversations, counted while they are read. */
interface ExportStats {
  read: number;
  /** Main language → conversations. */
  languages: Map<string, number>;
  /** Model layer status of the conversations this arena screened → conversations. */
  modelLayer: Map<string, number>;
  /** `arena` or the imported dataset → conversations. */
  sources: Map<string, number>;
  /** Imported dataset → conversations whose screening was taken from it (`--trust-source`). */
  trustedFromSource: Map<string, number>;
}

/** What the datasets page shows of this export: rows, tiers and languages, as its cards count them. */
function exportBuild(
  request: DatasetExportRequest,
  files: readonly ExportedFile[],
  languages: ReadonlyMap<string, number>,
  exportedAt: string,
): DatasetBuild {
  return {
    id: randomBytes(8).toString('hex'),
    kind: 'export',
    createdAt: exportedAt,
    summary: {
      conversations: [...languages.values()].reduce((sum, conversations) => sum + conversations, 0),
      formats: [...request.formats],
      license: request.datasetLicense ?? 'other',
      // Rows of a dataset in its first format (the other formats hold the same rows), in the public
      // tier, which has every dataset (the gated tier has the same rows of compar:IA's three).
      datasets: request.datasets.map((dataset) => ({
        name: dataset,
        rows: files
          .filter((file) => file.tier === 'public' && file.dataset === dataset && file.format === request.formats[0])
          .reduce((sum, file) => sum + file.rows, 0),
      })),
      tiers: DATASET_TIERS.map((tier) => ({
        name: tier,
        datasets: request.datasets.filter((dataset) => TIERS_OF[dataset].includes(tier)),
      })).filter((tier) => tier.datasets.length > 0),
      languages: [...languages]
        .sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0]))
        .map(([language, conversations]) => ({ language, conversations })),
    },
  };
}

/** Rows of each public dataset shown on the datasets page. */
const PREVIEW_ROWS = 5;

/**
 * What the datasets page offers of the public folder: its data files (size, rows) for download and
 * the first rows of each dataset. The gated folder is never listed, so it can never be served.
 */
async function publicFolder(outDir: string, files: readonly ExportedFile[]) {
  const folder = resolve(outDir);
  const root = join(folder, tierFolder('public'));
  const published = files.filter((file) => file.tier === 'public');
  const listed = await Promise.all(
    published.map(async (file) => ({
      dataset: file.dataset,
      language: file.language,
      format: file.format,
      path: relative(root, resolve(file.path)).split(sep).join('/'),
      rows: file.rows,
      bytes: await fileBytes(file.path),
    })),
  );
  const preview = [];
  for (const dataset of new Set(published.map((file) => file.dataset))) {
    const first = published.find((file) => file.dataset === dataset && file.rows > 0);
    if (first) preview.push({ dataset, rows: await previewRows(first.path, PREVIEW_ROWS) });
  }
  return { folder, files: listed, preview };
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
