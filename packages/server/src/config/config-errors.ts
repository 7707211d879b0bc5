// The configuration's two errors, apart from the parsers that throw them: the command line turns
// them into usage errors without loading the environment's schemas or the YAML reader.

/** A bad environment variable; the message names it. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** A bad model catalogue (models.yaml); the message names the file and the line. */
export class CatalogueError extends Error {
  override readonly name = 'CatalogueError';
}
