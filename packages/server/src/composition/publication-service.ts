import { uploadFolderToHub } from '../adapters/hub-upload';
import type { CatalogueModel } from '../config/catalogue';
import type { Config } from '../config/config';
import type { Store } from '../db/unit-of-work';
import { exportModelFacts } from '../domain/datasets/export-model-facts';
import { DatasetExportService } from '../services/dataset-export.service';
import type { Runtime } from '../services/ports/runtime';
import { PublicationService } from '../services/publication/publication.service';

/**
 * The console's publication: exports with the service `agora export` uses (the catalogue's facts,
 * the private cohorts kept out), recorded builds caught to name the run's build, pushes with
 * @huggingface/hub to AGORA_HUB_URL.
 */
export function createPublicationService(
  config: Config,
  store: Store,
  runtime: Runtime,
  models: readonly CatalogueModel[],
): PublicationService {
  const facts = exportModelFacts(models, config.impact);
  const datasets = store.datasets;
  return new PublicationService(
    store,
    runtime,
    {
      exportRun: async (request, progress) => {
        let buildId: string | undefined;
        const source = {
          exportableConversations: datasets.exportableConversations.bind(datasets),
          exclusionCounts: datasets.exclusionCounts.bind(datasets),
          visitorSalt: datasets.visitorSalt.bind(datasets),
          recordBuild: async (build: Parameters<typeof datasets.recordBuild>[0]) => {
            await datasets.recordBuild(build);
            buildId = build.id;
          },
        };
        await new DatasetExportService(source, facts, { privateCohorts: config.privateCohorts }).export(request, progress);
        if (!buildId) throw new Error('the export recorded no build');
        return { buildId };
      },
      upload: uploadFolderToHub,
    },
    {
      hubUrl: config.console.publication.hubUrl,
      environmentToken: config.console.publication.hubToken,
      environmentRepositories: config.datasetHub,
      outDir: config.console.publication.outDir,
      environmentSchedule: config.console.publication.schedule,
    },
  );
}
