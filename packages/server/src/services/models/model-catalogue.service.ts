import {
  type ConsoleModelList,
  type ModelAddRequest,
  type ModelOverrideRequest,
  type ModelTestResult,
  modelAddRequestSchema,
} from '@agora/contract';
import type { CatalogueEntry, CatalogueModel } from '../../config/catalogue';
import { CatalogueError } from '../../config/catalogue';
import { type ConfiguredProvider, addedEntry, overriddenEntry } from '../../config/catalogue-overrides';
import type { Store } from '../../db/unit-of-work';
import type { ModelRegistry } from '../../providers/registry';
import type { ModelClient } from '../../providers/spec';
import { AppError } from '../app-error';
import type { ArenaCatalogue } from '../arena-catalogue';
import type { Runtime } from '../ports/runtime';
import { type ModelOrigin, mergeOverrides } from './model-overrides';
import { consoleModelList } from './console-model-rows';
import { testCall } from './model-test-call';

export interface ModelCatalogueDependencies {
  store: Store;
  runtime: Runtime;
  /** The catalogue every service reads, and the clients duels call: both follow the overrides. */
  catalogue: ArenaCatalogue;
  registry: ModelRegistry;
  /** models.yaml's models as loaded at start (the source the overrides change). */
  yaml: readonly CatalogueModel[];
  providers: readonly ConfiguredProvider[];
  /** A hosted entry as a model, its key read from the environment. */
  build(entry: CatalogueEntry): CatalogueModel;
  clientOf(model: CatalogueModel): ModelClient;
  warn(message: string): void;
}

/** The answers counted in a model's statistics: those of the last 7 days. */
const STATS_WINDOW_MS = 7 * 86_400_000;
const LAST_ERRORS = 5;

/**
 * The console's models: models.yaml plus the overrides stored in the database. Every change is
 * written with a bump of the change stamp; each instance polls the stamp ({@link sync}, the
 * model-catalogue-sync job) and applies the overrides when it moved, so that a model added on one
 * instance is drawn on all within the poll's interval. The instance that made the change applies it at once.
 */
export class ModelCatalogueService {
  private appliedStamp = -1;
  private origins = new Map<string, ModelOrigin>();
  /** The provider settings each client was made for: a changed provider gets a new client. */
  private readonly clientFor = new Map<string, string>();

  constructor(private readonly dependencies: ModelCatalogueDependencies) {}

  /** Applies the stored overrides when the stamp moved since the last time; true when it did. */
  async sync(): Promise<boolean> {
    const stamp = await this.dependencies.store.modelOverrides.stamp();
    if (stamp === this.appliedStamp) return false;
    const records = await this.dependencies.store.modelOverrides.list();
    const merged = mergeOverrides(this.dependencies.yaml, records, this.dependencies);
    for (const reason of merged.skipped) this.dependencies.warn(`model override not applied: ${reason}`);
    for (const model of merged.models) this.ensureClient(model);
    this.dependencies.catalogue.replaceModels(merged.models);
    this.origins = merged.origins;
    this.appliedStamp = stamp;
    return true;
  }

  async list(): Promise<ConsoleModelList> {
    await this.sync();
    const since = new Date(this.dependencies.runtime.now().getTime() - STATS_WINDOW_MS).toISOString();
    const stats = await this.dependencies.store.modelOverrides.callStats(since);
    const models = this.dependencies.catalogue.models();
    const errors = await Promise.all(models.map((model) => this.dependencies.store.modelOverrides.lastErrors(model.entry.id, LAST_ERRORS)));
    return consoleModelList({ models, origins: this.origins, stats, errors, providers: this.dependencies.providers, since });
  }

  /** Changes a model's facts: a YAML model's override, or an added model's own entry. */
  async override(modelId: string, override: ModelOverrideRequest, actor: string): Promise<void> {
    await this.sync();
    const yamlModel = this.dependencies.yaml.find((model) => model.entry.id === modelId);
    if (yamlModel) {
      const stored = (await this.storedOf(modelId))?.body as ModelOverrideRequest | undefined;
      const merged = { ...stored, ...override };
      this.validated(() => overriddenEntry(yamlModel.entry, merged));
      return this.write(modelId, 'override', merged, actor);
    }
    const added = await this.storedOf(modelId);
    if (added?.kind !== 'added') throw new AppError('not_found', `no model ${modelId}`);
    const parsed = modelAddRequestSchema.safeParse({ ...(added.body as object), ...override });
    if (!parsed.success) throw new AppError('invalid_request', parsed.error.issues[0]!.message);
    const request = parsed.data;
    this.validated(() => addedEntry(request, this.dependencies.providers));
    return this.write(modelId, 'added', request, actor);
  }

  /** Adds a model of a provider models.yaml configures; every instance draws it after its next poll. */
  async add(request: ModelAddRequest, actor: string): Promise<void> {
    await this.sync();
    if (this.dependencies.catalogue.has(request.id)) throw new AppError('invalid_request', `a model ${request.id} exists already`);
    this.validated(() => addedEntry(request, this.dependencies.providers));
    return this.write(request.id, 'added', request, actor);
  }

  /** Back to models.yaml: the override deleted (an added model leaves the catalogue). */
  async reset(modelId: string): Promise<void> {
    const at = this.dependencies.runtime.now().toISOString();
    const removed = await this.dependencies.store.transaction(async (repositories) => {
      const gone = await repositories.modelOverrides.remove(modelId);
      if (gone) await repositories.modelOverrides.bumpStamp(at);
      return gone;
    });
    if (!removed) throw new AppError('not_found', `model ${modelId} has no override`);
    await this.sync();
  }

  /** One short prompt to the model, as a duel would send it. */
  async test(modelId: string, prompt: string | undefined): Promise<ModelTestResult> {
    await this.sync();
    const model = this.dependencies.catalogue.models().find((candidate) => candidate.entry.id === modelId);
    if (!model) throw new AppError('not_found', `no model ${modelId}`);
    const client = this.dependencies.registry.find(modelId) ?? this.dependencies.clientOf(model);
    return testCall(client, model.options, prompt, () => performance.now());
  }

  private async storedOf(modelId: string) {
    return (await this.dependencies.store.modelOverrides.list()).find((record) => record.modelId === modelId);
  }

  private async write(modelId: string, kind: 'override' | 'added', body: object, actor: string): Promise<void> {
    const at = this.dependencies.runtime.now().toISOString();
    await this.dependencies.store.transaction(async (repositories) => {
      await repositories.modelOverrides.put({ modelId, kind, body, updatedBy: actor, updatedAt: at });
      await repositories.modelOverrides.bumpStamp(at);
    });
    await this.sync();
  }

  private validated<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      if (error instanceof CatalogueError) throw new AppError('invalid_request', error.message);
      throw error;
    }
  }

  private ensureClient(model: CatalogueModel): void {
    const settings = JSON.stringify(model.entry.provider);
    const id = model.entry.id;
    if (model.entry.status === 'disabled' && !this.dependencies.registry.find(id)) return;
    if (this.dependencies.registry.find(id) && (this.clientFor.get(id) ?? settings) === settings) return;
    this.dependencies.registry.set(id, this.dependencies.clientOf(model));
    this.clientFor.set(id, settings);
  }
}
