import type { ModelAddRequest, ModelOverrideRequest } from '@agora/contract';
import { type CatalogueEntry, CatalogueError, type CatalogueModel, type HostedProvider, catalogueEntrySchema } from './catalogue';

/**
 * The console's changes over models.yaml, validated by the YAML's own entry schema: an override
 * merges into a YAML entry, an added model is an entry whose provider is one the YAML configures
 * (its base URL, key variable and headers stay the operator's: the console names a provider, never
 * sets one).
 */

/** A hosted provider models.yaml configures, named by its type, base URL and key variable. */
export interface ConfiguredProvider {
  key: string;
  provider: HostedProvider;
}

export const providerKeyOf = (provider: HostedProvider): string =>
  [provider.type, provider.base_url, provider.api_key_env].filter((part) => part !== undefined).join(' ');

/** The hosted providers of the YAML's models, once each, in the order they first appear. */
export function configuredProviders(models: readonly CatalogueModel[]): ConfiguredProvider[] {
  const byKey = new Map<string, ConfiguredProvider>();
  for (const { entry } of models) {
    if (entry.provider.type === 'llama-cpp') continue;
    const key = providerKeyOf(entry.provider);
    if (!byKey.has(key)) byKey.set(key, { key, provider: entry.provider });
  }
  return [...byKey.values()];
}

/** The YAML's entry with the console's facts; the result must still be a valid entry. */
export function overriddenEntry(entry: CatalogueEntry, override: ModelOverrideRequest): CatalogueEntry {
  return validEntry({ ...entry, ...override });
}

/** An added model's entry, its provider the YAML's with the model name the console gave. */
export function addedEntry(request: ModelAddRequest, providers: readonly ConfiguredProvider[]): CatalogueEntry {
  const configured = providers.find((candidate) => candidate.key === request.provider);
  if (!configured) throw new CatalogueError(`provider "${request.provider}" is not one models.yaml configures`);
  const { provider: _key, provider_model: providerModel, ...facts } = request;
  return validEntry({ ...facts, provider: { ...configured.provider, model: providerModel } });
}

export function validEntry(candidate: unknown): CatalogueEntry {
  const parsed = catalogueEntrySchema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new CatalogueError(`${issue.path.join('.') || 'entry'}: ${issue.message}`);
}
