import { join } from 'node:path';
import type { PublishedDatasets, PublishedExport, PublishedTier } from '@agora/contract';
import { type PublishedFile, holdsPublishedFile, openPublishedFile } from '../adapters/dataset-files/published-files';
import type { DatasetBuild, DatasetRepository } from '../db/repositories/dataset.repository';
import { AppError } from './app-error';

/** The Hugging Face Hub repositories (`owner/name`) the operator published the two folders to. */
export interface DatasetHub {
  public: string | undefined;
  gated: string | undefined;
}

/** Content types of the files a public folder holds. */
const CONTENT_TYPES: Record<string, string> = {
  parquet: 'application/vnd.apache.parquet',
  jsonl: 'application/jsonl; charset=utf-8',
};

/** A file of a public folder, ready to send. */
export interface PublicDownload {
  file: PublishedFile;
  contentType: string;
  name: string;
}

/**
 * What this arena has published, for the datasets page: the last export and the last optimised set,
 * with the figures of their cards (recorded when they were built), and the last export's public files.
 * Reads are one-row reads on an index and a check per file: no cache, so that a publication shows at once.
 */
export class PublishedDatasetsService {
  constructor(
    private readonly builds: Pick<DatasetRepository, 'latestBuild'>,
    /** The repositories, or where to read them at each request (the console can change them). */
    private readonly hub: DatasetHub | (() => Promise<DatasetHub>) = { public: undefined, gated: undefined },
  ) {}

  async latest(): Promise<PublishedDatasets> {
    const [exported, optimised] = await Promise.all([this.builds.latestBuild('export'), this.builds.latestBuild('optimised')]);
    return {
      export: exported ? await this.exportOf(exported) : null,
      optimised: optimised
        ? {
            built_at: optimised.createdAt,
            subsets: optimised.summary.subsets,
            languages: optimised.summary.languages,
            models: optimised.summary.models,
            judge_agreement: optimised.summary.judge_agreement,
          }
        : null,
    };
  }

  /**
   * A data file of the last export's public folder. Only a path the export listed is served (so never
   * the card's neighbours, the gated folder or anything outside), and only when its real path is inside
   * the public folder on this server. Anything else is `not_found`, alike, whatever the path tried.
   */
  async download(buildId: string, path: string): Promise<PublicDownload> {
    const exported = await this.builds.latestBuild('export');
    // Withdrawn: a visitor erased a duel these files may hold (docs/privacy.md#your-duels).
    const served = exported?.id === buildId && !exported.downloadsWithdrawnAt;
    const listed = served ? exported.summary.files?.find((file) => file.path === path) : undefined;
    const folder = exported?.summary.folder;
    const file = listed && folder ? await openPublishedFile(join(folder, 'public'), listed.path) : undefined;
    if (!listed || !file) throw new AppError('not_found', 'no such file in the public folder of the last export');
    return { file, contentType: CONTENT_TYPES[listed.format] ?? 'application/octet-stream', name: path.replaceAll('/', '-') };
  }

  private async exportOf(exported: Extract<DatasetBuild, { kind: 'export' }>): Promise<PublishedExport> {
    const { folder, files = [], preview = [], tiers, ...summary } = exported.summary;
    const hub = typeof this.hub === 'function' ? await this.hub() : this.hub;
    const served = folder && !exported.downloadsWithdrawnAt ? join(folder, 'public') : undefined;
    const held = await Promise.all(files.map(async (file) => (served ? holdsPublishedFile(served, file.path) : false)));
    return {
      built_at: exported.createdAt,
      ...summary,
      tiers: tiers ?? tiersBefore0008(summary),
      id: exported.id,
      files: files.map((file, index) => ({ ...file, url: held[index] ? downloadPath(exported.id, file.path) : null })),
      preview,
      hub: {
        public: hub.public ? hubUrl(hub.public) : null,
        gated: hub.gated ? hubUrl(hub.gated) : null,
      },
    };
  }
}

const downloadPath = (id: string, path: string) =>
  `/api/v1/datasets/${encodeURIComponent(id)}/files/${path.split('/').map(encodeURIComponent).join('/')}`;

const hubUrl = (repository: string) => `https://huggingface.co/datasets/${repository}`;

/**
 * The tiers of an export recorded before they were (docs/decisions/0006): the training subsets
 * public, compar:IA's three tables gated.
 */
function tiersBefore0008(summary: Pick<PublishedExport, 'datasets'>): PublishedTier[] {
  const names = summary.datasets.map((dataset) => dataset.name);
  const gated = new Set(['conversations', 'votes', 'reactions']);
  return [
    { name: 'public' as const, datasets: names.filter((name) => !gated.has(name)) },
    { name: 'gated' as const, datasets: names.filter((name) => gated.has(name)) },
  ].filter((tier) => tier.datasets.length > 0);
}
