import type { Command } from 'commander';
import { CatalogueError } from '../../config/catalogue';
import { ConfigError, loadConfig } from '../../config/config';
import { CliUsageError } from '../cli-error';

/** `agora serve`: the arena server, configured from the environment (see docs/configuration.md). */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('start the arena server (HTTP API, streams, web UI)')
    .option('--port <port>', 'overrides PORT')
    .option('--host <host>', 'overrides HOST')
    .action(async (flags: { port?: string; host?: string }) => {
      const environment = { ...process.env, ...(flags.port ? { PORT: flags.port } : {}), ...(flags.host ? { HOST: flags.host } : {}) };
      try {
        const config = loadConfig(environment);
        // Loaded here so that other commands do not pay for the whole server at start.
        const { AddressInUseError, closeOnSignals, createArena, listen } = await import('../../main');
        const arena = await createArena(config, environment);
        try {
          closeOnSignals(arena, await listen(arena, config));
        } catch (error) {
          await arena.close();
          if (error instanceof AddressInUseError) throw new CliUsageError(error.message);
          throw error;
        }
      } catch (error) {
        if (error instanceof ConfigError || error instanceof CatalogueError) throw new CliUsageError(error.message);
        throw error;
      }
    });
}
