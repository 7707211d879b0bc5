import { UNUSABLE_HASH, hashPassword, verifyPassword } from '../adapters/password-hash';
import { BUNDLED_PAGES, sitePageFiles } from '../adapters/site-page-files';
import { type CatalogueModel, hostedCatalogueModel } from '../config/catalogue';
import { configuredProviders } from '../config/catalogue-overrides';
import type { Config } from '../config/config';
import { createModelClient } from '../providers/create-model-client';
import { ModelRegistry } from '../providers/registry';
import type { ModelClient } from '../providers/spec';
import { ArenaCatalogue } from '../services/arena-catalogue';
import { ModelCatalogueService } from '../services/models/model-catalogue.service';
import type { Store } from '../db/unit-of-work';
import type { ConsoleServices } from '../http/routes/console';
import { ActivityService } from '../services/activity.service';
import { AuditService } from '../services/audit.service';
import { ContentService } from '../services/content.service';
import { RankInfluenceService } from '../services/rank-influence.service';
import type { Runtime } from '../services/ports/runtime';
import { StaffService } from '../services/staff.service';
import { createPublicationService } from './publication-service';

/** The address one-time links point to when the operator gave none: this server's own. */
export function publicUrlOf(config: Pick<Config, 'console' | 'host' | 'port'>): string {
  if (config.console.publicUrl) return config.console.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

/** What the console's models change: the catalogue as loaded at start, the live one, the clients and how to make one. */
export interface ConsoleModelParts {
  models: readonly CatalogueModel[];
  catalogue: ArenaCatalogue;
  registry: ModelRegistry;
  clientOf: (model: CatalogueModel) => ModelClient;
  environment: Record<string, string | undefined>;
  logger: { warn(message: string): void };
}

/** The console's services (docs/operations.md#the-console), shared by the HTTP app, the CLI and the jobs. */
export function createConsoleServices({
  config,
  store,
  runtime,
  ...modelParts
}: { config: Config; store: Store; runtime: Runtime } & Partial<ConsoleModelParts>): ConsoleServices {
  return {
    models: modelConsole(store, runtime, modelParts),
    staff: new StaffService(
      store,
      runtime,
      { hash: hashPassword, verify: verifyPassword, unusable: UNUSABLE_HASH },
      { sessionIdleMs: config.console.sessionIdleMs, sessionMaxMs: config.console.sessionMaxMs, publicUrl: publicUrlOf(config) },
    ),
    audit: new AuditService(store, runtime, config.console.auditRetentionDays),
    publication: createPublicationService(config, store, runtime, modelParts.models ?? []),
    activity: new ActivityService(store.activity, runtime),
    content: new ContentService(store, runtime, {
      folder: config.pagesDir ? sitePageFiles(config.pagesDir) : undefined,
      bundled: sitePageFiles(BUNDLED_PAGES),
    }),
    influence: new RankInfluenceService(store, {
      integrity: config.integrity,
      customModeOnMainBoard: config.leaderboard.customModeOnMainBoard ?? false,
    }),
  };
}

/** The console's models over the arena's catalogue; the staff commands load no models, and get an empty one. */
function modelConsole(store: Store, runtime: Runtime, parts: Partial<ConsoleModelParts>): ModelCatalogueService {
  const models = parts.models ?? [];
  return new ModelCatalogueService({
    store,
    runtime,
    catalogue: parts.catalogue ?? new ArenaCatalogue([]),
    registry: parts.registry ?? new ModelRegistry([]),
    yaml: models,
    providers: configuredProviders(models),
    build: (entry) => hostedCatalogueModel(entry, parts.environment ?? {}),
    clientOf: parts.clientOf ?? ((model) => createModelClient(model, undefined)),
    warn: (message) => parts.logger?.warn(message),
  });
}
