import type { DuelRecord } from '../../db/repositories/duel.repository';
import type { DuelServiceDependencies } from './duel-dependencies';

// A running turn's lease (docs/decisions/0005-several-instances.md): the process that runs a turn
// vouches for it in the store until `turns.lease_until`, and renews that while the turn streams.
// A lease that has run out means the process stopped (kill -9, a crash, a lost machine): any
// instance then ends the turn as interrupted, so that its viewers get the failure frame and its
// duel can be voted on or continued, without waiting for the turn's deadline (minutes).

/**
 * How long a lease holds. Its owner renews it every {@link TURN_LEASE_RENEW_EVERY_MS}, so three
 * renewals in a row may be late or lost (a slow store, a long pause of the event loop) before a
 * live turn is taken for dead; a follower polls every 100 ms, so its viewers learn of a killed
 * instance at most about this long after the kill, within the 15 s asked of a handover.
 */
export const TURN_LEASE_MS = 10_000;

/** How often the owner renews: one small update per running turn, a third of the lease. */
export const TURN_LEASE_RENEW_EVERY_MS = 3_000;

type LeaseParts = Pick<DuelServiceDependencies, 'store' | 'runtime' | 'logError'>;

/** The lease a turn starting (or renewed) at `now` holds until. */
export function leaseFrom(now: Date): string {
  return new Date(now.getTime() + TURN_LEASE_MS).toISOString();
}

/**
 * The renewals of every turn this process runs: one timer and one statement for all of them every
 * {@link TURN_LEASE_RENEW_EVERY_MS}. At 200 running duels that is one write every 3 s instead of
 * about 70 a second, each its own commit on the event loop that relays the tokens.
 */
export class TurnLeaseRenewals {
  private readonly held = new Map<string, TurnLease>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private renewing = false;

  constructor(private readonly parts: LeaseParts) {}

  /** Renews `lease` from the next tick on, until {@link drop}. */
  add(lease: TurnLease): void {
    this.held.set(lease.key, lease);
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.renew(), TURN_LEASE_RENEW_EVERY_MS);
    // A lease never keeps a process alive: a stopping process's turns are drained, not its timers.
    this.timer.unref();
  }

  drop(lease: TurnLease): void {
    if (this.held.get(lease.key) === lease) this.held.delete(lease.key);
    if (this.held.size > 0) return;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** One renewal at a time: a slow store skips a tick rather than stacking updates. */
  private async renew(): Promise<void> {
    if (this.renewing || this.held.size === 0) return;
    this.renewing = true;
    const { store, runtime, logError } = this.parts;
    const leases = [...this.held.values()];
    try {
      const renewed = await store.duels.renewTurnLeases(leases, leaseFrom(runtime.now()));
      for (const lease of leases) if (!renewed.has(lease.key)) lease.lose();
    } catch (error) {
      // The next tick tries again; a lease lapses only if every renewal fails for its whole length.
      logError(`renewing the leases of ${leases.length} running turns failed`, error);
    } finally {
      this.renewing = false;
    }
  }
}

/**
 * The lease of one running turn, from the moment its row is stored ({@link holdAfter}) until it is
 * stored finished ({@link release}), renewed with the process's others ({@link TurnLeaseRenewals}).
 * If the store says the turn no longer streams, another instance ended it as interrupted (it took
 * this one for dead): {@link lost} aborts, which stops the turn's upstream calls, and the renewal stops.
 */
export class TurnLease {
  private readonly lostController = new AbortController();
  private released = false;
  readonly key: string;

  constructor(
    private readonly renewals: TurnLeaseRenewals,
    readonly duelId: string,
    readonly turn: number,
  ) {
    this.key = `${duelId}:${turn}`;
  }

  /** Aborts once another instance has ended the turn. */
  get lost(): AbortSignal {
    return this.lostController.signal;
  }

  /** Starts renewing once `stored` resolves (the turn's row exists); nothing if it rejects or the lease was released first. */
  holdAfter(stored: Promise<unknown> | undefined): void {
    void Promise.resolve(stored).then(
      () => {
        if (!this.released) this.renewals.add(this);
      },
      () => {},
    );
  }

  /** Stops renewing: the turn is stored (or could not be). */
  release(): void {
    this.released = true;
    this.renewals.drop(this);
  }

  /** The store no longer has the turn streaming: unless it was stored meanwhile, another instance ended it. */
  lose(): void {
    if (this.released) return;
    this.release();
    this.lostController.abort();
  }
}

/**
 * A duel whose streaming turn's lease has lapsed (its process stopped): the turn is ended as
 * interrupted here, first, so that a vote or a follow-up is answered as for a failed turn rather
 * than "in progress". Returns whether the turn no longer streams, ended here or meanwhile by
 * another request or instance (two votes at once: the second must not answer "in progress" from
 * the duel it read before the first ended the turn): the caller then reads the duel again.
 */
export async function failTurnIfLeaseLapsed(parts: Pick<LeaseParts, 'store' | 'runtime'>, duel: DuelRecord): Promise<boolean> {
  if (duel.status !== 'streaming') return false;
  const { duels } = parts.store;
  if (await duels.failLapsedTurn(duel.id, duel.turnCount, parts.runtime.now().toISOString())) return true;
  const turn = await duels.findTurnLease(duel.id, duel.turnCount);
  return turn !== undefined && turn.status !== 'streaming';
}

/** Whether a lease read from the store has run out at `now` (a turn without one has only its deadline). */
export function leaseLapsed(leaseUntil: string | null, now: Date): boolean {
  return leaseUntil !== null && leaseUntil < now.toISOString();
}
