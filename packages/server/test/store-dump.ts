import { openDatabase, type StoreLocation } from '../src/db/dialect';

const TABLES = ['duels', 'turns', 'turn_sides', 'votes', 'reactions', 'conversation_annotations'] as const;
const ORDER: Record<(typeof TABLES)[number], string[]> = {
  duels: ['id'],
  turns: ['duel_id', 'turn'],
  turn_sides: ['duel_id', 'turn', 'side'],
  votes: ['duel_id'],
  reactions: ['duel_id', 'turn', 'side'],
  conversation_annotations: ['duel_id'],
};

/** Every row of the tables a conversation lives in, in a stable order: to compare two stores. */
export async function dumpStore(location: StoreLocation): Promise<Record<string, Record<string, unknown>[]>> {
  const db = openDatabase(location);
  try {
    const dump: Record<string, Record<string, unknown>[]> = {};
    for (const table of TABLES) {
      let query = db.selectFrom(table).selectAll();
      for (const column of ORDER[table]) query = query.orderBy(column as never);
      dump[table] = await query.execute();
    }
    return dump;
  } finally {
    await db.destroy();
  }
}

/** The `DATABASE_URL` of a test store, for the command line. */
export const databaseUrl = (location: StoreLocation): string => (location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url);
