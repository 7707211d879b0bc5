import { type ModelAddRequest, type ModelOverrideRequest, modelAddRequestSchema, modelOverrideRequestSchema } from '@agora/contract';
import type { CatalogueEntry, CatalogueModel } from '../../config/catalogue';
import { type ConfiguredProvider, addedEntry, overriddenEntry } from '../../config/catalogue-overrides';
import type { ModelOverrideRecord } from '../../db/repositories/model-override.repository';

/** How each model of the running catalogue came to be: as models.yaml says, overridden, or added in the console. */
export interface ModelOrigin {
  origin: 'yaml' | 'overridden' | 'added';
  fields: string[];
  updatedBy: string | null;
  updatedAt: string | null;
}

export interface MergedCatalogue {
  models: CatalogueModel[];
  origins: Map<string, ModelOrigin>;
  /** Stored changes that no longer apply (models.yaml changed since), in words for the log. */
  skipped: string[];
}

export interface MergePorts {
  /** A hosted entry as a model, its key read from the environment. */
  build(entry: CatalogueEntry): CatalogueModel;
  providers: readonly ConfiguredProvider[];
}

/**
 * models.yaml's models with the stored overrides merged in, then the added models. A stored row is
 * parsed again (the contract's schema, then the YAML's entry schema); one that no longer validates,
 * overrides a model the YAML dropped, or adds a model the YAML now lists, is skipped and said.
 */
export function mergeOverrides(
  yaml: readonly CatalogueModel[],
  records: readonly ModelOverrideRecord[],
  ports: MergePorts,
): MergedCatalogue {
  const byId = new Map(records.map((record) => [record.modelId, record]));
  const origins = new Map<string, ModelOrigin>();
  const skipped: string[] = [];
  const models = yaml.map((model) => {
    const record = byId.get(model.entry.id);
    if (record?.kind !== 'override') return origin(origins, model, undefined);
    try {
      const override = modelOverrideRequestSchema.parse(record.body);
      return origin(origins, withEntry(model, overriddenEntry(model.entry, override), ports), record, Object.keys(override));
    } catch (error) {
      skipped.push(`override of ${model.entry.id}: ${messageOf(error)}`);
      return origin(origins, model, undefined);
    }
  });
  const yamlIds = new Set(yaml.map((model) => model.entry.id));
  for (const record of records) {
    if (record.kind === 'override' && !yamlIds.has(record.modelId))
      skipped.push(`override of ${record.modelId}: models.yaml no longer lists it`);
    if (record.kind !== 'added') continue;
    if (yamlIds.has(record.modelId)) {
      skipped.push(`added model ${record.modelId}: models.yaml now lists it`);
      continue;
    }
    try {
      const request: ModelAddRequest = modelAddRequestSchema.parse(record.body);
      models.push(origin(origins, ports.build(addedEntry(request, ports.providers)), record));
    } catch (error) {
      skipped.push(`added model ${record.modelId}: ${messageOf(error)}`);
    }
  }
  return { models, origins, skipped };
}

/**
 * A YAML model with its new facts. A hosted model is built again, so that a model enabled here
 * says whether its key is set; a local one keeps its file checks (done once, at start).
 */
function withEntry(model: CatalogueModel, entry: CatalogueEntry, ports: MergePorts): CatalogueModel {
  if (entry.provider.type === 'llama-cpp') return { ...model, entry };
  const rebuilt = ports.build(entry);
  // A key the model was given at start (tests hand keys in) stays its key.
  if (model.apiKey === undefined) return rebuilt;
  return { ...rebuilt, apiKey: model.apiKey, unavailableReason: null };
}

function origin(origins: Map<string, ModelOrigin>, model: CatalogueModel, record: ModelOverrideRecord | undefined, fields: string[] = []) {
  origins.set(model.entry.id, {
    origin: record === undefined ? 'yaml' : record.kind === 'added' ? 'added' : 'overridden',
    fields,
    updatedBy: record?.updatedBy ?? null,
    updatedAt: record?.updatedAt ?? null,
  });
  return model;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message.split('\n')[0]! : String(error));

export type { ModelAddRequest, ModelOverrideRequest };
