import type { Command, CommanderError } from 'commander';
// the errors alone, not their parsers: every command loads this file (main.ts loads only the command run)
import { CatalogueError, ConfigError } from '../config/config-errors';

/** An error the user can fix (bad flag, unreadable file, bad line): printed as one line, exit code 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

/**
 * Runs a step that reads the environment or the catalogue; their errors become usage errors.
 * `flag` names the command-line flag that chose the value, in place of the variable's name.
 */
export function asUsageError<T>(step: () => T, flag?: string): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof CatalogueError) {
      throw new CliUsageError(flag ? error.message.replace(/^AGORA_[A-Z_]+: /, `${flag}: `) : error.message);
    }
    throw error;
  }
}

/** A command reports a bad flag or argument as one usage line (exit 2), without printing its help. */
export function reportingUsageErrors(command: Command): Command {
  return command
    .showHelpAfterError(false)
    .configureOutput({ outputError: () => undefined })
    .exitOverride((error: CommanderError) => {
      if (error.exitCode === 0) throw error;
      throw new CliUsageError(error.message.replace(/^error: /, ''));
    });
}

/** What {@link parseFlags} needs of a schema: zod's and zod/mini's (compute-leaderboard.ts) both have it. */
interface FlagsSchema<Flags> {
  safeParse(raw: unknown): { success: true; data: Flags } | { success: false; error: { issues: readonly { message: string }[] } };
}

/** Validates a command's parsed options; the first issue becomes the usage error. */
export function parseFlags<Flags>(schema: FlagsSchema<Flags>, raw: unknown): Flags {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new CliUsageError(parsed.error.issues[0]?.message ?? 'invalid flags');
  return parsed.data;
}
