import type { Kysely } from 'kysely';
import type { PeopleCheck } from '../../domain/maxx/maxx-people';
import type { Database } from '../database';

/** A pair shown to a visitor, as stored. */
export interface StoredCheck {
  id: string;
  itemKey: string;
  optimalDigest: string;
  optimalSide: 'a' | 'b';
  visitorHash: string;
  addressHash: string | null;
  shownAt: string;
  choice: 'a' | 'b' | 'tie' | null;
  chosenAt: string | null;
  flag: string | null;
}

/** People's checks of the optimised set (`maxx_checks`). */
export class MaxxCheckRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Of these kept items (full item keys of one run), the ones this visitor has not been shown, fewest checks first. */
  async unseenByVisitor(runKey: string, visitorHash: string, limit: number): Promise<{ itemKey: string; row: Record<string, unknown> }[]> {
    const prefix = `${runKey}|`;
    const rows = await this.db
      .selectFrom('maxx_items as i')
      .select(['i.item_key', 'i.row_json'])
      .select((eb) =>
        eb
          .selectFrom('maxx_checks as c')
          .select((inner) => inner.fn.countAll<number | string | bigint>().as('n'))
          .whereRef('c.item_key', '=', eb.fn('substr', ['i.item_key', eb.val(prefix.length + 1)]))
          .as('checks'),
      )
      .where('i.run_key', '=', runKey)
      .where('i.status', '=', 'kept')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('maxx_checks as seen')
              .select('seen.id')
              .where('seen.visitor_hash', '=', visitorHash)
              .whereRef('seen.item_key', '=', eb.fn('substr', [eb.ref('i.item_key'), eb.val(prefix.length + 1)])),
          ),
        ),
      )
      .orderBy('checks')
      .orderBy('i.item_key')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      itemKey: row.item_key.slice(prefix.length),
      row: JSON.parse(row.row_json ?? '{}') as Record<string, unknown>,
    }));
  }

  async create(check: StoredCheck): Promise<void> {
    await this.db
      .insertInto('maxx_checks')
      .values({
        id: check.id,
        item_key: check.itemKey,
        optimal_digest: check.optimalDigest,
        optimal_side: check.optimalSide,
        visitor_hash: check.visitorHash,
        address_hash: check.addressHash,
        shown_at: check.shownAt,
        choice: null,
        chosen_at: null,
        flag: null,
      })
      .execute();
  }

  async find(id: string): Promise<StoredCheck | undefined> {
    const row = await this.db.selectFrom('maxx_checks').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toCheck(row);
  }

  /** Records a choice once; false when the pair already has one (or is not this visitor's). */
  async choose(id: string, visitorHash: string, choice: 'a' | 'b' | 'tie', chosenAt: string, flag: string | null): Promise<boolean> {
    const result = await this.db
      .updateTable('maxx_checks')
      .set({ choice, chosen_at: chosenAt, flag })
      .where('id', '=', id)
      .where('visitor_hash', '=', visitorHash)
      .where('choice', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Every choice made on these items (item keys without their run), flagged ones included. */
  async choicesOf(itemKeys: readonly string[]): Promise<PeopleCheck[]> {
    if (itemKeys.length === 0) return [];
    const rows: PeopleCheck[] = [];
    for (let start = 0; start < itemKeys.length; start += 500) {
      const chunk = await this.db
        .selectFrom('maxx_checks')
        .select(['item_key', 'optimal_digest', 'optimal_side', 'choice', 'flag'])
        .where('item_key', 'in', itemKeys.slice(start, start + 500))
        .where('choice', 'is not', null)
        .orderBy('id')
        .execute();
      for (const row of chunk)
        rows.push({
          itemKey: row.item_key,
          optimalDigest: row.optimal_digest,
          optimalSide: row.optimal_side === 'b' ? 'b' : 'a',
          choice: row.choice as 'a' | 'b' | 'tie',
          flag: row.flag,
        });
    }
    return rows;
  }
}

function toCheck(row: Database['maxx_checks']): StoredCheck {
  return {
    id: row.id,
    itemKey: row.item_key,
    optimalDigest: row.optimal_digest,
    optimalSide: row.optimal_side === 'b' ? 'b' : 'a',
    visitorHash: row.visitor_hash,
    addressHash: row.address_hash,
    shownAt: row.shown_at,
    choice: row.choice as StoredCheck['choice'],
    chosenAt: row.chosen_at,
    flag: row.flag,
  };
}
