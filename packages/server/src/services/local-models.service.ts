import { dirname, relative, resolve } from 'node:path';
import { modelFileExists, writeLocalCatalogue } from '../adapters/local-catalogue-file';
import { type DownloadProgress, downloadModelFile, resolveUrl } from '../adapters/model-download';
import { huggingFacePath } from '../config/catalogue';
import type { RecommendedLocalModel } from '../config/recommended-local-models';
import { readLocalModelFacts } from '../providers/llama-cpp/local-model-facts';

export interface PullLocalModelsRequest {
  models: readonly RecommendedLocalModel[];
  /** Where the files go: `<dir>/<owner>/<repo>/<file>`. */
  dir: string;
  /** The catalogue written for them (`models.local.yaml`). */
  cataloguePath: string;
  /** The Hugging Face endpoint (or a mirror). */
  endpoint: string;
  token?: string | undefined;
  onStart?: (model: RecommendedLocalModel) => void;
  onProgress?: (model: RecommendedLocalModel, progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

export interface PulledModel {
  id: string;
  path: string;
  /** False when the file was already there (it was checked when it was downloaded). */
  downloaded: boolean;
  bytes: number | undefined;
}

/**
 * `agora models pull`: downloads each model's GGUF (resumable, checked against its SHA-256), reads
 * its facts from the file, and writes a catalogue of local models that `agora serve` can use as it is.
 */
export async function pullLocalModels(request: PullLocalModelsRequest): Promise<PulledModel[]> {
  const pulled: PulledModel[] = [];
  const entries: Record<string, unknown>[] = [];
  for (const model of request.models) {
    const path = huggingFacePath(resolve(request.dir), model.repo, model.file, model.revision);
    request.onStart?.(model);
    let bytes: number | undefined;
    const downloaded = !modelFileExists(path);
    if (downloaded) {
      const result = await downloadModelFile(resolveUrl(request.endpoint, model.repo, model.revision, model.file), path, {
        token: request.token,
        signal: request.signal,
        onProgress: (progress) => request.onProgress?.(model, progress),
      });
      bytes = result.bytes;
    }
    const facts = await readLocalModelFacts(path);
    pulled.push({ id: model.id, path, downloaded, bytes });
    entries.push({
      id: model.id,
      name: model.name,
      organisation: model.organisation,
      license: model.license,
      license_url: model.license_url,
      open_weights: true,
      arch: facts.arch,
      params_b: facts.paramsB,
      description: model.description,
      provider: { type: 'llama-cpp', model_path: relative(dirname(resolve(request.cataloguePath)), path) },
      // A laptop's CPU: a few tokens a second, so answers are kept short and given time.
      options: { max_output_tokens: 1024, first_token_timeout_ms: 120_000, total_timeout_ms: 600_000 },
    });
  }
  // Models pulled before stay in the catalogue: pulling one more never leaves the arena with fewer.
  writeLocalCatalogue(request.cataloguePath, entries);
  return pulled;
}
