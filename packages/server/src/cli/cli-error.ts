import { CatalogueError } from '../config/catalogue';
import { ConfigError } from '../config/config';

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
