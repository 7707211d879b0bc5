/** An error the user can fix (bad flag, unreadable file, bad line): printed as one line, exit code 2. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}
