import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Database } from './database';
import * as arenaCore from './migrations/2026_11_30_000000_arena_core';
import * as leaderboard from './migrations/2026_11_30_010000_leaderboard';
import * as dataPipeline from './migrations/2026_11_30_020000_data_pipeline';
import * as datasetExport from './migrations/2026_11_30_030000_dataset_export';
import * as postprocessQueue from './migrations/2026_11_30_040000_postprocess_queue';
import * as maxx from './migrations/2026_12_01_000000_maxx';
import * as datasetBuilds from './migrations/2026_12_01_010000_dataset_builds';
import * as rateLimits from './migrations/2026_12_01_020000_rate_limits';
import * as voteIntegrity from './migrations/2026_12_01_030000_vote_integrity';
import * as instances from './migrations/2026_12_01_040000_instances';
import * as servedModels from './migrations/2026_12_01_050000_served_models';
import * as rankingChanges from './migrations/2026_12_02_000000_ranking_changes';
import * as llmCallSettings from './migrations/2026_12_02_010000_llm_call_settings';
import * as turnVerdicts from './migrations/2026_12_02_020000_turn_verdicts';
import * as maxxChecks from './migrations/2026_12_02_030000_maxx_checks';
import * as costlyBudget from './migrations/2026_12_03_000000_costly_budget';
import * as turnLeases from './migrations/2026_12_04_000000_turn_leases';
import * as reportTargets from './migrations/2026_12_05_000000_report_targets';
import * as reportTargetUnique from './migrations/2026_12_05_010000_report_target_unique';
import * as visitorDuels from './migrations/2026_12_06_000000_visitor_duels';
import * as erasedVotes from './migrations/2026_12_07_000000_erased_votes';
import * as staffConsole from './migrations/2026_12_08_000000_staff_console';
import * as publication from './migrations/2026_12_08_030000_publication';
import * as consoleContent from './migrations/2026_12_08_020000_console_content';
import * as modelOverrides from './migrations/2026_12_08_010000_model_overrides';
import * as modelProfileIndexes from './migrations/2026_12_09_104000_model_profile_indexes';
import * as modelTallies from './migrations/2026_12_09_105500_model_tallies';
import * as capabilities from './migrations/2026_12_09_104510_capabilities';
import * as turnVerdictVisitors from './migrations/2026_12_09_104700_turn_verdict_visitors';
import * as surveyAnswers from './migrations/2026_12_09_105930_survey_answers';
import * as promptClusters from './migrations/2026_12_09_110200_prompt_clusters';
import * as rankingColumnsTable from './migrations/2026_12_10_174800_ranking_columns_table';
import * as promptClusterSequence from './migrations/2026_12_10_174600_prompt_cluster_sequence';
import * as streamingTurnsIndex from './migrations/2026_12_10_205800_streaming_turns_index';

/** Every migration, by name; listed statically so that bundlers and tsx see them. */
const migrations: Record<string, Migration> = {
  '2026_11_30_000000_arena_core': arenaCore,
  '2026_11_30_010000_leaderboard': leaderboard,
  '2026_11_30_020000_data_pipeline': dataPipeline,
  '2026_11_30_030000_dataset_export': datasetExport,
  '2026_11_30_040000_postprocess_queue': postprocessQueue,
  '2026_12_01_000000_maxx': maxx,
  '2026_12_01_010000_dataset_builds': datasetBuilds,
  '2026_12_01_020000_rate_limits': rateLimits,
  '2026_12_01_030000_vote_integrity': voteIntegrity,
  '2026_12_01_040000_instances': instances,
  '2026_12_01_050000_served_models': servedModels,
  '2026_12_02_000000_ranking_changes': rankingChanges,
  '2026_12_02_010000_llm_call_settings': llmCallSettings,
  '2026_12_02_020000_turn_verdicts': turnVerdicts,
  '2026_12_02_030000_maxx_checks': maxxChecks,
  '2026_12_03_000000_costly_budget': costlyBudget,
  '2026_12_04_000000_turn_leases': turnLeases,
  '2026_12_05_000000_report_targets': reportTargets,
  '2026_12_05_010000_report_target_unique': reportTargetUnique,
  '2026_12_06_000000_visitor_duels': visitorDuels,
  '2026_12_07_000000_erased_votes': erasedVotes,
  '2026_12_08_000000_staff_console': staffConsole,
  '2026_12_08_030000_publication': publication,
  '2026_12_08_020000_console_content': consoleContent,
  '2026_12_08_010000_model_overrides': modelOverrides,
  '2026_12_09_104000_model_profile_indexes': modelProfileIndexes,
  '2026_12_09_105500_model_tallies': modelTallies,
  '2026_12_09_104510_capabilities': capabilities,
  '2026_12_09_104700_turn_verdict_visitors': turnVerdictVisitors,
  '2026_12_09_105930_survey_answers': surveyAnswers,
  '2026_12_09_110200_prompt_clusters': promptClusters,
  '2026_12_10_174800_ranking_columns_table': rankingColumnsTable,
  '2026_12_10_174600_prompt_cluster_sequence': promptClusterSequence,
  '2026_12_10_205800_streaming_turns_index': streamingTurnsIndex,
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

/** Brings the schema up to date; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  // Migrations see the schema as it was when they were written, not today's `Database` type.
  const { error, results } = await new Migrator({ db: db as Kysely<unknown>, provider }).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, { cause: error });
  }
}
