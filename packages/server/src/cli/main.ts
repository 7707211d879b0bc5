import { Command, CommanderError } from 'commander';
import type { Config } from '../config/config';
import { CliUsageError } from './cli-error';
import type { LeaderboardVoteSources } from './commands/compute-leaderboard';
import type { InfluenceSource } from './commands/compute-influence';

type Registration = (program: Command) => void;

/**
 * Each command's name and the module that registers it, in the order `agora --help` lists them.
 * Only the command being run is loaded (`agora leaderboard` pays for neither the YAML reader, nor
 * the Parquet writer, nor the other commands' schemas); `agora`, `agora --help`, `agora help …`
 * and an unknown word load them all, so that the list and commander's suggestions stay whole.
 */
const COMMANDS: Record<string, () => Promise<Registration>> = {
  serve: async () => (await import('./commands/serve-arena')).registerServeCommand,
  impact: async () => (await import('./commands/compute-impact')).registerImpactCommand,
  leaderboard: async () => {
    const { registerLeaderboardCommand } = await import('./commands/compute-leaderboard');
    return (program) => registerLeaderboardCommand(program, storeVoteSources);
  },
  influence: async () => {
    const { registerInfluenceCommand } = await import('./commands/compute-influence');
    return (program) => registerInfluenceCommand(program, storeInfluence);
  },
  lang: async () => (await import('./commands/detect-language')).registerLanguageCommand,
  pii: async () => (await import('./commands/screen-pii')).registerPiiCommand,
  postprocess: async () => (await import('./commands/postprocess-conversations')).registerPostprocessCommand,
  import: async () => (await import('./commands/import-comparia')).registerImportCommand,
  export: async () => (await import('./commands/export-dataset')).registerExportCommand,
  maxx: async () => (await import('./commands/build-maxx')).registerMaxxCommand,
  models: async () => (await import('./commands/pull-models')).registerModelsCommand,
  jobs: async () => (await import('./commands/list-jobs')).registerJobsCommand,
  staff: async () => (await import('./commands/manage-staff')).registerStaffCommand,
};

/** Runs a store command with the configuration; a bad variable is the user's to fix. */
async function withConfig<T>(use: (config: Config) => Promise<T>): Promise<T> {
  const { ConfigError, loadConfig } = await import('../config/config');
  try {
    return await use(loadConfig(process.env));
  } catch (error) {
    if (error instanceof ConfigError) throw new CliUsageError(error.message);
    throw error;
  }
}

// Without --votes: the arena's own store (DATABASE_URL), loaded only when asked for.
const storeVoteSources: LeaderboardVoteSources = {
  storeVotes: () => withConfig(async (config) => (await import('../main')).loadStoreVoteTable(config)),
  storeTurnVerdicts: () => withConfig(async (config) => (await import('../composition/store-access')).loadStoreTurnVerdictTable(config)),
};

const storeInfluence: InfluenceSource = (by, top, includeFlagged) =>
  withConfig(async (config) => (await import('../composition/store-access')).loadStoreInfluence(config, by, top, includeFlagged));

/**
 * The `agora` command line. Each command lives in `commands/<verb>-<noun>.ts`, parses its
 * arguments with zod, calls one service and prints. Errors that users can fix are printed as one
 * line on stderr with exit code 2; anything else is a crash with a stack trace.
 */
export async function buildProgram(argv: string[]): Promise<Command> {
  const program = new Command('agora')
    .description('Agora: an open, multilingual LLM arena and preference-data pipeline')
    .showHelpAfterError()
    .exitOverride();
  const word = argv[2];
  const loaders = word !== undefined && Object.hasOwn(COMMANDS, word) ? [COMMANDS[word]!] : Object.values(COMMANDS);
  for (const register of await Promise.all(loaders.map((load) => load()))) register(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    if (error instanceof CliUsageError) {
      process.stderr.write(`agora: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

await main(process.argv);
