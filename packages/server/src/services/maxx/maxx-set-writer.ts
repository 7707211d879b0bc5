import { type MaxxSetDescription, writeMaxxSet } from '../../adapters/dataset-files/maxx-set-files';
import type { Store } from '../../db/unit-of-work';
import type { MaxxSubset } from '../../domain/maxx/maxx-rules';
import { listEligibleItems, runItemKey } from './maxx-items';

export type { MaxxSetDescription } from '../../adapters/dataset-files/maxx-set-files';
export { writeMaxxSet } from '../../adapters/dataset-files/maxx-set-files';

/**
 * The last optimised set assembled by `agora maxx --out`, written again into `outDir` from the
 * store (for `agora export --optimised`); null when none was ever built.
 */
export async function writeLatestOptimisedSet(
  store: Store,
  outDir: string,
  privateCohorts: readonly string[],
): Promise<{ cardPath: string; rows: Record<MaxxSubset, number> } | null> {
  const latest = await store.datasets.latestBuild('optimised');
  if (!latest) return null;
  const summary = { ...latest.summary, description: latest.summary.description as MaxxSetDescription | undefined };
  // Only what is eligible now, as `agora maxx --out` assembles: a conversation excluded since is not published again.
  const eligible = new Set((await listEligibleItems(store, privateCohorts)).map((item) => runItemKey(summary.runKey, item)));
  const records = (await store.maxx.listItems(summary.runKey)).filter((record) => eligible.has(record.itemKey));
  return writeMaxxSet(records, summary.description ?? { roles: summary.models }, outDir);
}
