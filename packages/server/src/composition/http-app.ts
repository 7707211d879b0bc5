import type { Logger } from 'pino';
import { BUNDLED_PAGES, sitePageFiles } from '../adapters/site-page-files';
import type { Config } from '../config/config';
import type { Store } from '../db/unit-of-work';
import { createApp } from '../http/app';
import { TrustedProxies } from '../http/client-address';
import type { ArenaCatalogue } from '../services/arena-catalogue';
import { MaxxCheckService } from '../services/maxx/maxx-check.service';
import { ModelProfileService } from '../services/model-profile.service';
import { MyDuelsService } from '../services/my-duels.service';
import { loadSurvey } from '../config/survey-config';
import { SurveyService } from '../services/survey.service';
import { PopulationBoardService } from '../services/population-board.service';
import { PublishedDatasetsService } from '../services/published-datasets.service';
import { ReviewService } from '../services/review.service';
import type { Runtime } from '../services/ports/runtime';
import { SiteService } from '../services/site.service';
import { StatisticsService } from '../services/statistics.service';
import { VoteIntegrityService } from '../services/vote-integrity';
import type { ArenaServices } from './arena-services';
import type { ConsoleServices } from '../http/routes/console';

/** The HTTP app over the shared services, with the services only its routes use. */
export function createHttpApp(
  {
    config,
    store,
    runtime,
    catalogue,
    logger,
  }: { config: Config; store: Store; runtime: Runtime; catalogue: ArenaCatalogue; logger: Logger },
  services: ArenaServices,
  consoleServices: ConsoleServices,
) {
  // A bad survey file stops the start, naming the file and the field.
  const survey = config.surveyPath ? loadSurvey(config.surveyPath) : undefined;
  const integrity = voteIntegrity({ config, store, runtime, catalogue }, services);
  // The population board and the model sheets' tags leave out the votes no board counts: as the
  // live board's last refresh here judged them, else (another instance computes the board, or none
  // ended yet) judged again over every stored vote.
  const flaggedDuels = () => {
    const judged = services.leaderboards.flaggedDuels();
    return judged ? Promise.resolve(judged) : integrity.flaggedDuels();
  };
  return createApp({
    duels: services.duels,
    myDuels: new MyDuelsService({ store, catalogue, runtime }),
    operations: services.operations,
    review: new ReviewService(store, runtime),
    console: consoleServices,
    integrity,
    leaderboards: services.leaderboards,
    survey: new SurveyService({ store, runtime, survey }),
    populationBoard: new PopulationBoardService({ store, catalogue, runtime, survey, flaggedDuels }),
    catalogue,
    datasets: new PublishedDatasetsService(store.datasets, () => consoleServices.publication.hubRepositories()),
    checks: new MaxxCheckService(store, { enabled: config.maxxChecks, privateCohorts: config.privateCohorts }, runtime),
    // The operator's folder wins over the console's pages (read-only then), which win over the bundled texts.
    site: new SiteService(
      store,
      [config.pagesDir ? sitePageFiles(config.pagesDir) : consoleServices.content.storedPage, sitePageFiles(BUNDLED_PAGES)],
      {
        voteGoal: config.voteGoal,
        operatorContact: config.operatorContact,
      },
    ),
    statistics: new StatisticsService(store.statistics),
    modelProfiles: new ModelProfileService({ store, catalogue, board: services.leaderboards, flaggedDuels }),
    limiter: services.limiter,
    proofOfWork: services.proofOfWork,
    trustedProxies: new TrustedProxies(config.trustedProxies),
    metrics: services.metrics,
    logger,
    settings: {
      maxPromptChars: config.maxPromptChars,
      maxTurns: config.maxTurns,
      adminToken: config.adminToken,
      metricsToken: config.metricsToken,
      cookieSecure: config.cookieSecure,
      cohortHosts: config.cohortHosts,
    },
  });
}

/** The console's integrity page, and the flagged votes the other boards leave out. */
function voteIntegrity(
  { config, store, runtime, catalogue }: { config: Config; store: Store; runtime: Runtime; catalogue: ArenaCatalogue },
  services: ArenaServices,
): VoteIntegrityService {
  // As the live board judges: without de-duplication, prompt clusters are ignored and cluster_push with them.
  const rules = config.leaderboard.promptDedup === false ? { ...config.integrity, clusterPush: undefined } : config.integrity;
  return new VoteIntegrityService(store, runtime, rules, () => services.leaderboards.storedRatings(), {
    customModeOnMainBoard: config.leaderboard.customModeOnMainBoard ?? false,
    promptDedup: config.leaderboard.promptDedup,
    board: services.leaderboards,
    servedModels: (hours) => services.operations.servedModelMismatches(hours),
    providerOf: (modelId) => {
      const model = catalogue.models().find((candidate) => candidate.entry.id === modelId);
      return model && { provider: model.entry.provider.type, requested: catalogue.providerModel(modelId) };
    },
  });
}
