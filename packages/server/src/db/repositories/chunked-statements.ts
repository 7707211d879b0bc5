/** Rows per multi-row insert: well under both dialects' bound-parameter limits. */
const INSERT_CHUNK = 500;

/** Runs a multi-row insert (or an update by a list of ids) in chunks (bound-parameter limits). */
export async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) await insert(rows.slice(start, start + INSERT_CHUNK));
}

/** Runs a lookup by a list of ids in chunks (bound-parameter limits) and concatenates the rows. */
export async function selectChunked<T>(ids: readonly string[], select: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let start = 0; start < ids.length; start += INSERT_CHUNK) rows.push(...(await select(ids.slice(start, start + INSERT_CHUNK))));
  return rows;
}
