import type { Kysely, Selectable, Updateable } from 'kysely';
import type { Database } from '../database';
import type { PublicationRunsTable } from '../tables/publication';
import type { DatasetBuild } from './dataset.repository';

export type PublicationRunRow = Selectable<PublicationRunsTable>;
export type ExportBuild = Extract<DatasetBuild, { kind: 'export' }>;

/** The console's publication runs, its Hub settings, and the exports (`dataset_builds`) it lists and pushes. */
export class PublicationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insertRun(row: PublicationRunRow): Promise<void> {
    await this.db.insertInto('publication_runs').values(row).execute();
  }

  async updateRun(id: string, patch: Updateable<PublicationRunsTable>): Promise<void> {
    await this.db.updateTable('publication_runs').set(patch).where('id', '=', id).execute();
  }

  /**
   * Runs left `running` by an instance that died: called by the holder of the publication lease, so
   * no other run can be under way.
   */
  async interruptRunning(finishedAt: string): Promise<number> {
    const result = await this.db
      .updateTable('publication_runs')
      .set({ status: 'interrupted', finished_at: finishedAt })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async run(id: string): Promise<PublicationRunRow | undefined> {
    return this.db.selectFrom('publication_runs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async recentRuns(limit: number): Promise<PublicationRunRow[]> {
    return this.db.selectFrom('publication_runs').selectAll().orderBy('started_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** When each build was last pushed in full (a push or a scheduled publication that ended well). */
  async lastPushes(): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('publication_runs')
      .select(['build_id', (eb) => eb.fn.max('finished_at').as('pushed_at')])
      .where('status', '=', 'done')
      .where('kind', 'in', ['push', 'scheduled'])
      .where('build_id', 'is not', null)
      .groupBy('build_id')
      .execute();
    return new Map(rows.flatMap((row) => (row.build_id && row.pushed_at ? [[row.build_id, String(row.pushed_at)] as const] : [])));
  }

  /** The exports, newest first. */
  async exportBuilds(limit: number): Promise<ExportBuild[]> {
    const rows = await this.db
      .selectFrom('dataset_builds')
      .selectAll()
      .where('kind', '=', 'export')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(exportBuildOf);
  }

  async exportBuild(id: string): Promise<ExportBuild | undefined> {
    const row = await this.db.selectFrom('dataset_builds').selectAll().where('kind', '=', 'export').where('id', '=', id).executeTakeFirst();
    return row && exportBuildOf(row);
  }

  async settings(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('publication_settings').selectAll().execute();
    return new Map(rows.map((row) => [row.key, row.value]));
  }

  /** Sets (a string) or forgets (null) each setting given, in one transaction. */
  async changeSettings(changes: ReadonlyMap<string, string | null>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const [key, value] of changes) {
        if (value === null) await trx.deleteFrom('publication_settings').where('key', '=', key).execute();
        else
          await trx
            .insertInto('publication_settings')
            .values({ key, value })
            .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
            .execute();
      }
    });
  }
}

function exportBuildOf(row: Selectable<Database['dataset_builds']>): ExportBuild {
  return {
    id: row.id,
    kind: 'export',
    createdAt: row.created_at,
    downloadsWithdrawnAt: row.downloads_withdrawn_at,
    summary: JSON.parse(row.summary_json) as ExportBuild['summary'],
  };
}
