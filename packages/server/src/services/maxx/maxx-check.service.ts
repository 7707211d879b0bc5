import { createHash } from 'node:crypto';
import type { CheckChoiceRequest, CheckPair } from '@agora/contract';
import type { Store } from '../../db/unit-of-work';
import { minReadingMs } from '../../domain/maxx/maxx-people';
import { AppError } from '../app-error';
import type { Runtime } from '../ports/runtime';
import { hashClientAddress, hashVisitor } from '../visitor-hashes';
import { listEligibleItems, runItemKey } from './maxx-items';

/**
 * Check mode (docs/datasets.md#people-checks): with `AGORA_MAXX_CHECKS` on, a visitor who opts in
 * is shown a row of the last published optimised set — the conversation up to its prompt, the
 * optimised reply and the original reply it beat — blind and in random order, and says which is
 * better. `agora maxx` reports how often people agree with its judges. Only rows whose conversation
 * is still eligible for the open datasets are shown.
 */

export interface MaxxCheckSettings {
  enabled: boolean;
  privateCohorts: readonly string[];
}

/** How long the eligible rows are remembered before the store is asked again. */
const ELIGIBLE_TTL_MS = 60_000;
/** Rows a visitor has not seen, read at once to pick from. */
const CANDIDATES = 20;

export const digestOf = (text: string): string => createHash('sha256').update(text).digest('hex');

export class MaxxCheckService {
  private eligible: { runKey: string; keys: Set<string>; at: number } | undefined;

  constructor(
    private readonly store: Store,
    private readonly settings: MaxxCheckSettings,
    private readonly runtime: Pick<Runtime, 'now' | 'newId' | 'random'>,
  ) {}

  /** The next pair for this visitor; 404 when check mode is off, when no set is published, or when the visitor has seen every row. */
  async next(visitorId: string, address: string): Promise<CheckPair> {
    if (!this.settings.enabled) throw new AppError('not_found', 'check mode is off on this arena');
    const latest = await this.store.datasets.latestBuild('optimised');
    if (!latest) throw new AppError('not_found', 'no optimised set to check yet');
    const runKey = latest.summary.runKey;
    const eligible = await this.eligibleKeys(runKey);
    const visitorHash = hashVisitor(visitorId);
    const candidates = (await this.store.maxxChecks.unseenByVisitor(runKey, visitorHash, CANDIDATES)).filter(
      (candidate) => eligible.has(candidate.itemKey) && typeof candidate.row.rejected === 'string',
    );
    const picked = candidates[0];
    if (!picked) throw new AppError('not_found', 'nothing left to check for you');
    const optimal = String(picked.row.response_optimal);
    const original = String(picked.row.rejected);
    const optimalSide = this.runtime.random() < 0.5 ? 'a' : 'b';
    const id = this.runtime.newId();
    await this.store.maxxChecks.create({
      id,
      itemKey: picked.itemKey,
      optimalDigest: digestOf(optimal),
      optimalSide,
      visitorHash,
      addressHash: hashClientAddress(address),
      shownAt: this.runtime.now().toISOString(),
      choice: null,
      chosenAt: null,
      flag: null,
    });
    const messages = (picked.row.messages as { role: 'user' | 'assistant'; content: string }[]).map(({ role, content }) => ({
      role,
      content,
    }));
    return { id, messages, a: optimalSide === 'a' ? optimal : original, b: optimalSide === 'a' ? original : optimal };
  }

  /** Records the visitor's choice on a pair shown to them; a choice made faster than the replies can be read is kept but flagged. */
  async choose(id: string, request: CheckChoiceRequest, visitorId: string): Promise<{ status: 'recorded' }> {
    if (!this.settings.enabled) throw new AppError('not_found', 'check mode is off on this arena');
    const check = await this.store.maxxChecks.find(id);
    const visitorHash = hashVisitor(visitorId);
    // Another visitor's pair is as unknown as a missing one: ids are not enumerable, and nothing says whose it is.
    if (!check || check.visitorHash !== visitorHash) throw new AppError('not_found', 'no such pair to check');
    if (check.choice !== null) throw new AppError('already_voted', 'this pair has a choice already');
    const chosenAt = this.runtime.now();
    const row = await this.rowOf(check.itemKey);
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    const readable = row ? minReadingMs(text(row.response_optimal).length, text(row.rejected).length) : 0;
    const flag = chosenAt.getTime() - Date.parse(check.shownAt) < readable ? 'too_fast' : null;
    if (!(await this.store.maxxChecks.choose(id, visitorHash, request.choice, chosenAt.toISOString(), flag)))
      throw new AppError('already_voted', 'this pair has a choice already');
    return { status: 'recorded' };
  }

  private async rowOf(itemKey: string): Promise<Record<string, unknown> | undefined> {
    const latest = await this.store.datasets.latestBuild('optimised');
    return latest ? this.store.maxx.keptRow(runItemKey(latest.summary.runKey, { key: itemKey })) : undefined;
  }

  /** The items of the run whose conversation is eligible now (item keys without the run), remembered a minute. */
  private async eligibleKeys(runKey: string): Promise<Set<string>> {
    const now = this.runtime.now().getTime();
    if (this.eligible && this.eligible.runKey === runKey && now - this.eligible.at < ELIGIBLE_TTL_MS) return this.eligible.keys;
    const keys = new Set((await listEligibleItems(this.store, this.settings.privateCohorts)).map((item) => item.key));
    this.eligible = { runKey, keys, at: now };
    return keys;
  }
}
