import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import { architectureSchema, modelStatusSchema } from '@agora/contract';
import { CatalogueError } from './config-errors';

export { CatalogueError };

const hostedProviderSchema = z.strictObject({
  type: z.enum(['openai-compatible', 'openai', 'anthropic']),
  base_url: z.url(),
  model: z.string().min(1),
  api_key_env: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name')
    .optional(),
  headers: z.record(z.string(), z.string()).optional(),
  /** For openai-compatible: the lean built-in client (default) or the AI SDK's provider. */
  client: z.enum(['direct', 'ai-sdk']).optional(),
  /** Requests the pipelines (`agora maxx`) send this endpoint at once, at most; the lowest value of an endpoint's models applies. */
  max_concurrency: z.number().int().min(1).max(1024).optional(),
});

/** A Hugging Face file: `hf:owner/repo/path/to/file.gguf` (an optional `@revision` after the repo). */
export const HF_REFERENCE =
  /^hf:([A-Za-z0-9][A-Za-z0-9._-]*)\/([A-Za-z0-9][A-Za-z0-9._-]*)(?:@([A-Za-z0-9._-]+))?\/((?:[A-Za-z0-9._-]+\/)*[A-Za-z0-9._-]+\.gguf)$/;

/** A model run in this process by llama.cpp (node-llama-cpp), from a GGUF file. */
const localProviderSchema = z.strictObject({
  type: z.literal('llama-cpp'),
  /** A GGUF file (relative to the catalogue's folder), or `hf:owner/repo/file.gguf`, fetched into AGORA_LOCAL_MODELS_DIR on first use. */
  model_path: z
    .string()
    .min(1)
    .refine(
      (path) => (path.startsWith('hf:') ? HF_REFERENCE.test(path) : path.endsWith('.gguf')),
      'a .gguf file, or hf:owner/repo/file.gguf',
    )
    // A reference names a file inside the local models folder, never one above it.
    .refine(
      (path) => !path.startsWith('hf:') || !path.split('/').some((segment) => segment === '.' || segment === '..'),
      'an hf: reference without . or .. segments',
    ),
  /** Tokens of context per request (default: 4096, or less when the model was trained on less). */
  context_size: z.number().int().min(256).max(262_144).optional(),
  /** Requests generated at once, each with its own context sequence; more wait in the model's queue (default 2). */
  parallel: z.number().int().min(1).max(16).optional(),
  /** CPU threads of generation (default: the cores but one, so that the server keeps one). */
  threads: z.number().int().min(1).max(256).optional(),
  max_concurrency: z.number().int().min(1).max(1024).optional(),
});

const providerSchema = z.discriminatedUnion('type', [hostedProviderSchema, localProviderSchema]);

export type HostedProvider = z.infer<typeof hostedProviderSchema>;
export type LocalProvider = z.infer<typeof localProviderSchema>;

const optionsSchema = z.strictObject({
  temperature: z.number().min(0).max(2).nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  system_prompt: z.string().nullish(),
  first_token_timeout_ms: z.number().int().positive().nullish(),
  total_timeout_ms: z.number().int().positive().nullish(),
});

/** One model of models.yaml; the console validates its overrides and added models against it too (config/catalogue-overrides.ts). */
export const catalogueEntrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,99}$/, 'a lowercase slug (a-z, 0-9, . _ -)'),
  name: z.string().min(1),
  organisation: z.string().min(1),
  license: z.string().min(1),
  open_weights: z.boolean(),
  arch: architectureSchema,
  params_b: z.number().positive().nullable(),
  active_params_b: z.number().positive().nullish(),
  /** The parameter counts are an estimate (shown as such): the maker does not publish them. */
  params_estimated: z.boolean().default(false),
  /** A few sentences about the model, shown on its sheet: one text, or one per language (`{fr: …, en: …}`; docs/configuration.md#models). */
  description: z
    .union([
      z.string().min(1).max(2000),
      z
        .record(z.string().regex(/^[a-z]{2,3}$/, 'a language code such as fr'), z.string().min(1).max(2000))
        .refine((texts) => Object.keys(texts).length > 0, 'at least one language'),
    ])
    .optional(),
  /** Where the licence and its reuse conditions are written. */
  license_url: z.url().optional(),
  /** What its answers may be used for in the datasets, when the licence's default reading is wrong (domain/datasets/training-use.ts). */
  training_use: z.enum(['allowed', 'check_licence', 'evaluation_only']).optional(),
  reasoning: z.boolean().default(false),
  release_date: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM')
    .nullish(),
  status: modelStatusSchema.default('enabled'),
  /** Costly to call: the characters a visitor and an address send it are limited (AGORA_LIMIT_EXPENSIVE_CHARS_*). */
  expensive: z.boolean().default(false),
  /** Other names the model may call itself (any script or language), for the identity-leak check. */
  aliases: z.array(z.string().min(2)).optional(),
  provider: providerSchema,
  options: optionsSchema.optional(),
  /** What the provider charges, in US dollars per million tokens (pipeline spend and its `--max-cost`). */
  pricing: z.strictObject({ input_per_million_usd: z.number().nonnegative(), output_per_million_usd: z.number().nonnegative() }).optional(),
});

const catalogueFileSchema = z.strictObject({ models: z.array(catalogueEntrySchema) });

export type CatalogueEntry = z.infer<typeof catalogueEntrySchema>;

/** Per-model call settings with the defaults filled in. */
export interface ModelCallOptions {
  temperature: number | undefined;
  maxOutputTokens: number;
  systemPrompt: string | undefined;
  firstTokenTimeoutMs: number;
  totalTimeoutMs: number;
}

/** One catalogue model as the server uses it: public facts, call settings and availability. */
export interface CatalogueModel {
  entry: CatalogueEntry;
  options: ModelCallOptions;
  apiKey: string | undefined;
  /** Why an enabled model cannot be drawn (its key variable is not set, its local file is missing…), or null when it can. */
  unavailableReason: string | null;
  /** A local (llama-cpp) model's file and resources; undefined for hosted models. */
  local: LocalModelFile | undefined;
}

/** Where a local model's GGUF file is, and what it may use. */
export interface LocalModelFile {
  /** The resolved file path (an `hf:` reference resolves into the local models folder). */
  path: string;
  /** The Hugging Face file it comes from, when it was given as `hf:owner/repo/file.gguf`. */
  huggingFace: { repo: string; revision: string; file: string } | undefined;
  contextSize: number | undefined;
  parallel: number | undefined;
  threads: number | undefined;
  /** The file's quantisation, read from its GGUF header at start. */
  quantization?: string | undefined;
}

const defaultOptions: ModelCallOptions = {
  temperature: undefined,
  maxOutputTokens: 4096,
  systemPrompt: undefined,
  firstTokenTimeoutMs: 20_000,
  totalTimeoutMs: 120_000,
};

/** Reads and validates `models.yaml`; errors name the file, the line and the field. */
export function loadCatalogue(path: string, environment: Record<string, string | undefined>): CatalogueModel[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CatalogueError(`AGORA_MODELS: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return parseCatalogue(text, path, environment);
}

/** Validates catalogue text (see {@link loadCatalogue}). */
export function parseCatalogue(text: string, path: string, environment: Record<string, string | undefined>): CatalogueModel[] {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, uniqueKeys: true });
  if (document.errors.length > 0) {
    const first = document.errors[0]!;
    throw new CatalogueError(`${path}:${first.linePos?.[0].line ?? '?'}: ${first.message.split('\n')[0]}`);
  }
  const parsed = catalogueFileSchema.safeParse(document.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    // An unknown key is reported on its parent; point at the key itself.
    const issuePath = [...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : [])] as (string | number)[];
    const node = document.getIn(issuePath, true) as { range?: [number, number] } | undefined;
    const parentNode = document.getIn(issuePath.slice(0, -1), true) as { range?: [number, number] } | undefined;
    const offset = node?.range?.[0] ?? parentNode?.range?.[0];
    const line = offset === undefined ? '?' : lineCounter.linePos(offset).line;
    throw new CatalogueError(`${path}:${line}: ${issuePath.join('.')}: ${issue.message}`);
  }
  assertUniqueIds(parsed.data.models, path);
  const folder = dirname(resolve(path));
  const localModelsDir = resolve(environment.AGORA_LOCAL_MODELS_DIR || join(folder, 'local-models'));
  return parsed.data.models.map((entry) => toCatalogueModel(entry, environment, { folder, localModelsDir }));
}

function assertUniqueIds(entries: CatalogueEntry[], path: string): void {
  const seen = new Set<string>();
  for (const entry of entries) {
    if (seen.has(entry.id)) throw new CatalogueError(`${path}: duplicate model id "${entry.id}"`);
    seen.add(entry.id);
  }
}

/** A hosted model the console added: its key read from the environment, as a YAML model's is (local models are the YAML's alone). */
export function hostedCatalogueModel(entry: CatalogueEntry, environment: Record<string, string | undefined>): CatalogueModel {
  if (entry.provider.type === 'llama-cpp') throw new CatalogueError(`model ${entry.id}: only a hosted model can be added from the console`);
  return toCatalogueModel(entry, environment, { folder: '.', localModelsDir: '.' });
}

function toCatalogueModel(
  entry: CatalogueEntry,
  environment: Record<string, string | undefined>,
  places: { folder: string; localModelsDir: string },
): CatalogueModel {
  const keyName = entry.provider.type === 'llama-cpp' ? undefined : entry.provider.api_key_env;
  const apiKey = keyName ? environment[keyName] || undefined : undefined;
  const missingKey = entry.status === 'enabled' && keyName !== undefined && apiKey === undefined;
  return {
    entry,
    apiKey,
    unavailableReason: missingKey ? `set ${keyName} to enable it` : null,
    local: entry.provider.type === 'llama-cpp' ? localModelFile(entry.provider, places) : undefined,
    options: {
      temperature: entry.options?.temperature ?? defaultOptions.temperature,
      maxOutputTokens: entry.options?.max_output_tokens ?? defaultOptions.maxOutputTokens,
      systemPrompt: entry.options?.system_prompt ?? defaultOptions.systemPrompt,
      firstTokenTimeoutMs: entry.options?.first_token_timeout_ms ?? defaultOptions.firstTokenTimeoutMs,
      totalTimeoutMs: entry.options?.total_timeout_ms ?? defaultOptions.totalTimeoutMs,
    },
  };
}

function localModelFile(provider: LocalProvider, places: { folder: string; localModelsDir: string }): LocalModelFile {
  const settings = { contextSize: provider.context_size, parallel: provider.parallel, threads: provider.threads };
  const reference = HF_REFERENCE.exec(provider.model_path);
  if (reference === null) return { path: resolve(places.folder, provider.model_path), huggingFace: undefined, ...settings };
  const [, owner, name, revision, file] = reference as unknown as [string, string, string, string | undefined, string];
  return {
    path: huggingFacePath(places.localModelsDir, `${owner}/${name}`, file, revision),
    huggingFace: { repo: `${owner}/${name}`, revision: revision ?? 'main', file },
    ...settings,
  };
}

/**
 * Where a Hugging Face file is kept in the local models folder: `<folder>/<owner>/<repo>/<file>`,
 * or `<owner>/<repo>@<revision>/<file>` for another revision than `main` (another revision is another file).
 */
export const huggingFacePath = (folder: string, repo: string, file: string, revision = 'main'): string => {
  const [owner, name] = repo.split('/') as [string, string];
  return join(folder, owner, revision === 'main' ? name : `${name}@${revision}`, ...file.split('/'));
};

/** The environment variable holding a model's API key, if its provider needs one. */
export const apiKeyEnv = (entry: CatalogueEntry): string | undefined =>
  entry.provider.type === 'llama-cpp' ? undefined : entry.provider.api_key_env;

/** The model name its provider knows: the vendor's model id, or a local model's file. */
export const providerModelName = (entry: CatalogueEntry): string =>
  entry.provider.type === 'llama-cpp' ? entry.provider.model_path : entry.provider.model;

/** Whether the pairing policy may draw this model. */
export function isDrawable(model: CatalogueModel): boolean {
  return model.entry.status === 'enabled' && model.unavailableReason === null;
}
