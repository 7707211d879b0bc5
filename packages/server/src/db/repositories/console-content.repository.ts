import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../database';
import type { ConsoleContentTable } from '../tables/console-content';

export type ConsoleContentRow = Selectable<ConsoleContentTable>;
export type ConsoleContentKey = Pick<ConsoleContentRow, 'kind' | 'name' | 'locale'>;

/** A stored list's body (tags, suggestions) as the list it encodes: the JSON column is decoded here, as every JSON column is in the repositories. */
export function decodeContentList<T>(body: string): T[] {
  return JSON.parse(body) as T[];
}

/** The console's edited texts: one row per kind, name and language, replaced whole on each save. */
export class ConsoleContentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async find(key: ConsoleContentKey): Promise<ConsoleContentRow | undefined> {
    return this.db
      .selectFrom('console_content')
      .selectAll()
      .where('kind', '=', key.kind)
      .where('name', '=', key.name)
      .where('locale', '=', key.locale)
      .executeTakeFirst();
  }

  /** A stored list (tags, suggestions), decoded from its JSON column; undefined when none is stored. */
  async findList<T>(kind: string, locale: string): Promise<T[] | undefined> {
    const row = await this.find({ kind, name: '', locale });
    return row ? decodeContentList<T>(row.body) : undefined;
  }

  async saveList(kind: string, locale: string, items: readonly unknown[], by: { at: string; actor: string }): Promise<void> {
    await this.save({ kind, name: '', locale, body: JSON.stringify(items), updated_at: by.at, updated_by: by.actor });
  }

  /** Every row's key and date, without the bodies: what is edited where. */
  async listKeys(): Promise<(ConsoleContentKey & Pick<ConsoleContentRow, 'updated_at' | 'updated_by'>)[]> {
    return this.db.selectFrom('console_content').select(['kind', 'name', 'locale', 'updated_at', 'updated_by']).execute();
  }

  async save(row: ConsoleContentRow): Promise<void> {
    await this.db
      .insertInto('console_content')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['kind', 'name', 'locale']).doUpdateSet((update) => ({
          body: update.ref('excluded.body'),
          updated_at: update.ref('excluded.updated_at'),
          updated_by: update.ref('excluded.updated_by'),
        })),
      )
      .execute();
  }

  /** Removes the edited text (back to the built-in one); whether there was one. */
  async remove(key: ConsoleContentKey): Promise<boolean> {
    const result = await this.db
      .deleteFrom('console_content')
      .where('kind', '=', key.kind)
      .where('name', '=', key.name)
      .where('locale', '=', key.locale)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
