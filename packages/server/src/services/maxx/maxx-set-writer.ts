import { type MaxxSetDescription, writeMaxxSet } from '../../adapters/dataset-files/maxx-set-files';
import type { Store } from '../../db/unit-of-work';
import type { MaxxSubset } from '../../domain/maxx/maxx-rules';

export type { MaxxSetDescription } from '../../adapters/dataset-files/maxx-set-files';
export { writeMaxxSet } from '../../adapters/dataset-files/maxx-set-files';

/**
 * The last optimised set assembled by `agora maxx --out`, written again into `outDir` from the
 * store (for `agora export --optimised`); null when none was ever built.
 */
export async function writeLatestOptimisedSet(
  store: Store,
  outDir: string,
): Promise<{ cardPath: string; rows: Record<MaxxSubset, number> } | null> {
  const latest = await store.datasets.latestBuild('optimised');
  if (!latest) return null;
  const summary = { ...latest.summary, description: latest.summary.description as MaxxSetDescription | undefined };
  return writeMaxxSet(await store.maxx.listItems(summary.runKey), summary.description ?? { roles: summary.models }, outDir);
}
