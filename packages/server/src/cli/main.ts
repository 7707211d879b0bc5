import { Command, CommanderError } from 'commander';
import { CliUsageError } from './cli-error';
import { registerServeCommand } from './commands/serve-arena';
import { registerImpactCommand } from './commands/compute-impact';
import { registerLeaderboardCommand } from './commands/compute-leaderboard';
import { registerInfluenceCommand } from './commands/compute-influence';
import { registerLanguageCommand } from './commands/detect-language';
import { registerPiiCommand } from './commands/screen-pii';
import { registerPostprocessCommand } from './commands/postprocess-conversations';
import { registerImportCommand } from './commands/import-comparia';
import { registerExportCommand } from './commands/export-dataset';
import { registerMaxxCommand } from './commands/build-maxx';
import { registerModelsCommand } from './commands/pull-models';
import { registerJobsCommand } from './commands/list-jobs';
import { registerStaffCommand } from './commands/manage-staff';

/**
 * The `agora` command line. Each command lives in `commands/<verb>-<noun>.ts`, parses its
 * arguments with zod, calls one service and prints. Errors that users can fix are printed as one
 * line on stderr with exit code 2; anything else is a crash with a stack trace.
 */
export function buildProgram(): Command {
  const program = new Command('agora')
    .description('Agora: an open, multilingual LLM arena and preference-data pipeline')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerImpactCommand(program);
  registerLeaderboardCommand(program, {
    // Without --votes: the arena's own store (DATABASE_URL), loaded only when asked for.
    storeVotes: async () => {
      const [{ loadStoreVoteTable }, { ConfigError, loadConfig }] = await Promise.all([import('../main'), import('../config/config')]);
      try {
        return await loadStoreVoteTable(loadConfig(process.env));
      } catch (error) {
        if (error instanceof ConfigError) throw new CliUsageError(error.message);
        throw error;
      }
    },
    storeTurnVerdicts: async () => {
      const [{ loadStoreTurnVerdictTable }, { ConfigError, loadConfig }] = await Promise.all([
        import('../composition/store-access'),
        import('../config/config'),
      ]);
      try {
        return await loadStoreTurnVerdictTable(loadConfig(process.env));
      } catch (error) {
        if (error instanceof ConfigError) throw new CliUsageError(error.message);
        throw error;
      }
    },
  });
  registerInfluenceCommand(program, async (by, top, includeFlagged) => {
    const [{ loadStoreInfluence }, { ConfigError, loadConfig }] = await Promise.all([
      import('../composition/store-access'),
      import('../config/config'),
    ]);
    try {
      return await loadStoreInfluence(loadConfig(process.env), by, top, includeFlagged);
    } catch (error) {
      if (error instanceof ConfigError) throw new CliUsageError(error.message);
      throw error;
    }
  });
  registerLanguageCommand(program);
  registerPiiCommand(program);
  registerPostprocessCommand(program);
  registerImportCommand(program);
  registerExportCommand(program);
  registerMaxxCommand(program);
  registerModelsCommand(program);
  registerJobsCommand(program);
  registerStaffCommand(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
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
