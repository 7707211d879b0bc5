import { join, resolve } from 'node:path';
import type {
  HubPush,
  HubSettings,
  HubSettingsUpdate,
  PublicationBuild,
  PublicationExportRequest,
  PublicationOverview,
  PublicationRun,
  PublicationSchedule,
} from '@agora/contract';
import { type HubFolderUpload, hubFolderFileCount, readExportCard } from '../../adapters/hub-upload';
import type { ExportBuild } from '../../db/repositories/publication.repository';
import type { Repositories } from '../../db/unit-of-work';
import { DATASET_NAMES } from '../../domain/datasets/export-columns';
import { nextScheduledAt, scheduledPublicationDue } from '../../domain/publication/schedule';
import { AppError } from '../app-error';
import type { DatasetExportRequest, ExportProgress } from '../dataset-export.service';
import type { Runtime } from '../ports/runtime';
import { PartialPushError, PublicationRuns, type RunHandle, type RunOutcome, RunFailure } from './publication-runs';

/** The export of `agora export` (DatasetExportService), and the id of the build it recorded. */
export type ExportRunner = (request: DatasetExportRequest, progress: ExportProgress) => Promise<{ buildId: string }>;

export interface PublicationSettings {
  hubUrl: string;
  /** AGORA_HUB_TOKEN. */
  environmentToken: string | undefined;
  /** AGORA_HUB_PUBLIC_DATASET and AGORA_HUB_GATED_DATASET. */
  environmentRepositories: { public: string | undefined; gated: string | undefined };
  outDir: string;
  environmentSchedule: PublicationSchedule;
}

export interface PublicationPorts {
  exportRun: ExportRunner;
  upload: (upload: HubFolderUpload) => Promise<{ files: number; bytes: number; commitUrl: string | null }>;
}

const TIERS = ['public', 'gated'] as const;
const BUILDS_LISTED = 20;
const RUNS_LISTED = 10;

/** The stored settings' keys (publication_settings). */
const KEY = {
  public: 'public_repository',
  gated: 'gated_repository',
  token: 'hub_token',
  schedule: 'schedule',
  lastScheduled: 'last_scheduled_at',
} as const;

/**
 * The console's publication (docs/operations.md#publication): exports run with the CLI's code, the
 * builds, pushes of a build's two folders to their Hub dataset repositories, the Hub settings (the
 * token stored, never answered), and the scheduled publication. One run at a time across instances.
 */
export class PublicationService {
  readonly runs: PublicationRuns;
  private tokens: readonly string[] = [];

  constructor(
    private readonly store: Pick<Repositories, 'leases' | 'publication'>,
    private readonly runtime: Runtime,
    private readonly ports: PublicationPorts,
    private readonly settings: PublicationSettings,
  ) {
    this.runs = new PublicationRuns(store, runtime, () => [...this.tokens, settings.environmentToken ?? '']);
  }

  async overview(): Promise<PublicationOverview> {
    const [settings, builds, runs] = await Promise.all([this.hubSettings(), this.builds(), this.store.publication.recentRuns(RUNS_LISTED)]);
    return { settings, builds, runs: runs.map((row) => this.runs.view(row)) };
  }

  async run(id: string): Promise<PublicationRun> {
    const row = await this.store.publication.run(id);
    if (!row) throw new AppError('not_found', 'no such publication run');
    return this.runs.view(row);
  }

  /** The repositories the console publishes to (set here, else the environment's), for the datasets page's links. */
  async hubRepositories(): Promise<{ public: string | undefined; gated: string | undefined }> {
    const stored = await this.store.publication.settings();
    return {
      public: stored.get(KEY.public) ?? this.settings.environmentRepositories.public,
      gated: stored.get(KEY.gated) ?? this.settings.environmentRepositories.gated,
    };
  }

  async hubSettings(): Promise<HubSettings> {
    const stored = await this.store.publication.settings();
    const schedule = this.scheduleOf(stored);
    const last = stored.get(KEY.lastScheduled) ?? null;
    return {
      hub_url: this.settings.hubUrl,
      public_repository: stored.get(KEY.public) ?? this.settings.environmentRepositories.public ?? null,
      gated_repository: stored.get(KEY.gated) ?? this.settings.environmentRepositories.gated ?? null,
      token_set: stored.has(KEY.token) || this.settings.environmentToken !== undefined,
      token_source: stored.has(KEY.token) ? 'console' : this.settings.environmentToken ? 'environment' : null,
      schedule,
      last_scheduled_at: last,
      next_scheduled_at: nextScheduledAt(schedule, last, this.runtime.now())?.toISOString() ?? null,
    };
  }

  /** Changes what is given; answers how many settings changed (for the audit log) and the settings, without the token. */
  async changeSettings(update: HubSettingsUpdate): Promise<{ changed: number; settings: HubSettings }> {
    const changes = new Map<string, string | null>();
    if (update.public_repository !== undefined) changes.set(KEY.public, update.public_repository);
    if (update.gated_repository !== undefined) changes.set(KEY.gated, update.gated_repository);
    if (update.token !== undefined) changes.set(KEY.token, update.token);
    else if (update.clear_token) changes.set(KEY.token, null);
    if (update.schedule !== undefined) changes.set(KEY.schedule, update.schedule);
    await this.store.publication.changeSettings(changes);
    return { changed: changes.size, settings: await this.hubSettings() };
  }

  async startExport(actor: string, request: PublicationExportRequest): Promise<PublicationRun> {
    return this.runs.start('export', actor, async (run) => ({ buildId: await this.exportInto(run, request) }));
  }

  /** Pushes a build's folders: `public/` to the public repository, `gated/` to the gated one when there is one. */
  async startPush(actor: string, buildId: string): Promise<PublicationRun> {
    const build = await this.store.publication.exportBuild(buildId);
    if (!build) throw new AppError('not_found', 'no such export');
    if (build.downloadsWithdrawnAt) throw new AppError('build_withdrawn', 'a visitor erased a duel this export may hold: export again');
    const target = await this.target();
    if (!target.ok) throw new AppError('publication_not_configured', target.missing);
    return this.runs.start('push', actor, (run) => this.push(run, build, target));
  }

  /** The schedule's turn (jobs/publication.plan.ts): when due, an export then its push; false when not due or busy. */
  async publishIfDue(): Promise<boolean> {
    const stored = await this.store.publication.settings();
    const now = this.runtime.now();
    if (!scheduledPublicationDue(this.scheduleOf(stored), stored.get(KEY.lastScheduled) ?? null, now)) return false;
    try {
      await this.runs.start('scheduled', 'schedule', async (run) => {
        await this.store.publication.changeSettings(new Map([[KEY.lastScheduled, now.toISOString()]]));
        const buildId = await this.exportInto(run, {});
        const target = await this.target();
        if (!target.ok) throw new RunFailure('not_configured', target.missing);
        const build = await this.store.publication.exportBuild(buildId);
        if (!build) throw new RunFailure('files_missing', 'the export just built is not recorded');
        return this.push(run, build, target);
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'publication_busy') return false;
      throw error;
    }
    return true;
  }

  /** A build's card as text: the README.md of one of its folders, while this server holds it. */
  async card(buildId: string, tier: 'public' | 'gated'): Promise<string> {
    const build = await this.store.publication.exportBuild(buildId);
    const card = build?.summary.folder ? await readExportCard(build.summary.folder, tier) : undefined;
    if (card === undefined) throw new AppError('not_found', 'no such card on this server');
    return card;
  }

  private async builds(): Promise<PublicationBuild[]> {
    const [builds, pushes] = await Promise.all([this.store.publication.exportBuilds(BUILDS_LISTED), this.store.publication.lastPushes()]);
    return Promise.all(builds.map((build) => this.buildView(build, pushes.get(build.id) ?? null)));
  }

  private async buildView(build: ExportBuild, pushedAt: string | null): Promise<PublicationBuild> {
    const { summary } = build;
    const tiers = summary.tiers?.map((tier) => tier.name) ?? [...TIERS];
    const cards = await Promise.all(
      tiers.map(async (tier) => {
        const held = summary.folder ? (await readExportCard(summary.folder, tier)) !== undefined : false;
        return { tier, card_url: held ? `/api/v1/admin/publication/builds/${encodeURIComponent(build.id)}/cards/${tier}` : null };
      }),
    );
    return {
      id: build.id,
      built_at: build.createdAt,
      conversations: summary.conversations,
      license: summary.license,
      formats: summary.formats,
      datasets: summary.datasets,
      cards,
      withdrawn: Boolean(build.downloadsWithdrawnAt),
      pushed_at: pushedAt,
    };
  }

  /** Runs the export into a folder of its own under the publication folder; answers the build's id. */
  private async exportInto(run: RunHandle, request: PublicationExportRequest): Promise<string> {
    const stamp = this.runtime.now().toISOString().replace(/[:.]/g, '-');
    const outDir = resolve(this.settings.outDir, `${stamp}-${run.id.slice(0, 8).replace(/[^A-Za-z0-9]/g, '_')}`);
    const { buildId } = await this.ports.exportRun(
      {
        outDir,
        formats: request.formats ?? ['parquet', 'jsonl'],
        datasets: [...DATASET_NAMES],
        datasetLicense: request.dataset_license,
      },
      (done, total) => run.progress(done, total),
    );
    run.buildMade(buildId);
    return buildId;
  }

  private async push(run: RunHandle, build: ExportBuild, target: Extract<HubTarget, { ok: true }>): Promise<RunOutcome> {
    const folder = build.summary.folder;
    const sends = TIERS.flatMap((tier) => {
      const repository = target.repositories[tier];
      return repository && folder ? [{ tier, repository, folder: join(folder, tier) }] : [];
    });
    const counts = await Promise.all(sends.map((send) => hubFolderFileCount(send.folder)));
    const total = counts.reduce((sum, count) => sum + count, 0);
    if (!folder || counts[0] === 0) throw new RunFailure('files_missing', "this server does not hold the export's files");
    const pushes: HubPush[] = [];
    let before = 0;
    for (const [index, send] of sends.entries()) {
      if (counts[index] === 0) continue;
      try {
        const sent = await this.ports.upload({
          hubUrl: this.settings.hubUrl,
          repository: send.repository,
          token: target.token,
          folder: send.folder,
          title: `Agora export ${build.id} (${build.createdAt.slice(0, 10)}), ${send.tier} dataset`,
          progress: (done) => run.progress(before + done, total),
          signal: run.signal,
        });
        pushes.push({ tier: send.tier, repository: send.repository, files: sent.files, bytes: sent.bytes, commit_url: sent.commitUrl });
      } catch (error) {
        throw pushes.length > 0 ? new PartialPushError(error, pushes) : error;
      }
      before += counts[index]!;
    }
    run.progress(total, total);
    return { buildId: build.id, pushes };
  }

  private async target(): Promise<HubTarget> {
    const stored = await this.store.publication.settings();
    const token = stored.get(KEY.token) ?? this.settings.environmentToken;
    if (stored.has(KEY.token)) this.tokens = [stored.get(KEY.token)!];
    const repositories = await this.hubRepositories();
    if (!token) return { ok: false, missing: 'no Hub token: give one in the console or set AGORA_HUB_TOKEN' };
    if (!repositories.public)
      return { ok: false, missing: 'no public dataset repository: give one in the console or set AGORA_HUB_PUBLIC_DATASET' };
    return { ok: true, token, repositories };
  }

  private scheduleOf(stored: ReadonlyMap<string, string>): PublicationSchedule {
    const value = stored.get(KEY.schedule);
    return value === 'off' || value === 'daily' || value === 'weekly' ? value : this.settings.environmentSchedule;
  }
}

type HubTarget =
  { ok: true; token: string; repositories: { public: string | undefined; gated: string | undefined } } | { ok: false; missing: string };
