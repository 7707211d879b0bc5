import type { HubPush, PublicationFailure, PublicationRun } from '@agora/contract';
import type { PublicationRunRow } from '../../db/repositories/publication.repository';
import type { Repositories } from '../../db/unit-of-work';
import { runStatusOf } from '../../domain/publication/schedule';
import { HubUploadError } from '../../adapters/hub-upload';
import { AppError } from '../app-error';
import type { Runtime } from '../ports/runtime';

/** The store lease every export and push of the console and the schedule takes: one at a time across instances. */
export const PUBLICATION_LEASE = 'publication';
/** The lease's length; it and the run's heartbeat are renewed every third of it. */
const LEASE_MS = 120_000;
/** Progress is written to the store at most this often (pollers on any instance read it there). */
const PROGRESS_EVERY_MS = 500;

export type RunKind = PublicationRun['kind'];

/** What a run's work reports while it works. */
export interface RunHandle {
  readonly id: string;
  readonly signal: AbortSignal;
  progress(done: number, total: number): void;
  buildMade(buildId: string): void;
}

export interface RunOutcome {
  buildId?: string | undefined;
  pushes?: HubPush[];
}

/** A failure a run ends with: its code for the console, and the words of whoever failed. */
export class RunFailure extends Error {
  constructor(
    readonly failure: PublicationFailure,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs one publication task (an export, a push, or both on schedule) at a time across instances:
 * the store lease `publication`, renewed while the work runs; the run's row keeps its progress
 * and outcome for any instance to read. The work runs after `start` answers; `drain` waits for it.
 */
export class PublicationRuns {
  private readonly owner: string;
  private running: Promise<void> = Promise.resolve();
  private readonly abort = new AbortController();

  constructor(
    private readonly store: Pick<Repositories, 'leases' | 'publication'>,
    private readonly runtime: Runtime,
    /** Strings never to write in a run's detail (the Hub tokens). */
    private readonly secrets: () => readonly string[],
  ) {
    this.owner = runtime.newId();
  }

  /** Starts `work` under the lease and answers its first state; `publication_busy` while another run holds it. */
  async start(kind: RunKind, actor: string, work: (run: RunHandle) => Promise<RunOutcome>): Promise<PublicationRun> {
    if (this.abort.signal.aborted) throw new AppError('publication_busy', 'the server is stopping');
    if (!(await this.claim())) throw new AppError('publication_busy', 'an export or a push is under way; try again when it ends');
    const now = this.runtime.now().toISOString();
    // Holding the lease, nothing else runs: a row still `running` lost its instance.
    await this.store.publication.interruptRunning(now);
    const row: PublicationRunRow = {
      id: this.runtime.newId(),
      kind,
      status: 'running',
      actor,
      started_at: now,
      heartbeat_at: now,
      finished_at: null,
      done: 0,
      total: 0,
      build_id: null,
      pushes_json: '[]',
      failure: null,
      detail: null,
    };
    await this.store.publication.insertRun(row);
    this.running = this.running.then(() => this.execute(row.id, work));
    return this.view(row);
  }

  /** Waits for the run under way; `abort` first stops a push between requests. */
  async drain(abort = false): Promise<void> {
    if (abort) this.abort.abort();
    await this.running;
  }

  /** Waits for the run this instance started (tests, the schedule). */
  get current(): Promise<void> {
    return this.running;
  }

  view(row: PublicationRunRow): PublicationRun {
    return {
      id: row.id,
      kind: row.kind as RunKind,
      status: runStatusOf(row.status, row.heartbeat_at, this.runtime.now(), LEASE_MS),
      actor: row.actor,
      started_at: row.started_at,
      finished_at: row.finished_at,
      done: Number(row.done),
      total: Number(row.total),
      build_id: row.build_id,
      pushes: JSON.parse(row.pushes_json) as HubPush[],
      failure: row.failure as PublicationFailure | null,
      detail: row.detail,
    };
  }

  private claim(): Promise<boolean> {
    const now = this.runtime.now();
    return this.store.leases.claim(PUBLICATION_LEASE, this.owner, now.toISOString(), new Date(now.getTime() + LEASE_MS).toISOString());
  }

  private async execute(id: string, work: (run: RunHandle) => Promise<RunOutcome>): Promise<void> {
    const progress = { done: 0, total: 0, writtenAt: 0, writing: Promise.resolve() };
    const write = (patch: Parameters<typeof this.store.publication.updateRun>[1]) => {
      progress.writing = progress.writing.then(() => this.store.publication.updateRun(id, patch)).catch(() => undefined);
    };
    const heartbeat = setInterval(() => {
      void this.claim();
      write({ heartbeat_at: this.runtime.now().toISOString(), done: progress.done, total: progress.total });
    }, LEASE_MS / 3);
    heartbeat.unref();
    const handle: RunHandle = {
      id,
      signal: this.abort.signal,
      progress: (done, total) => {
        Object.assign(progress, { done, total });
        const now = this.runtime.now().getTime();
        if (now - progress.writtenAt < PROGRESS_EVERY_MS) return;
        progress.writtenAt = now;
        write({ done, total, heartbeat_at: new Date(now).toISOString() });
      },
      buildMade: (buildId) => write({ build_id: buildId }),
    };
    try {
      const outcome = await work(handle);
      await progress.writing;
      await this.finish(id, {
        status: 'done',
        done: progress.total,
        total: progress.total,
        ...(outcome.buildId ? { build_id: outcome.buildId } : {}),
        ...(outcome.pushes ? { pushes_json: JSON.stringify(outcome.pushes) } : {}),
      });
    } catch (error) {
      await progress.writing;
      await this.finish(id, { status: 'failed', done: progress.done, total: progress.total, ...this.failureOf(error) });
    } finally {
      clearInterval(heartbeat);
      await this.store.leases.release(PUBLICATION_LEASE, this.owner).catch(() => undefined);
    }
  }

  private async finish(id: string, patch: Parameters<typeof this.store.publication.updateRun>[1]): Promise<void> {
    const now = this.runtime.now().toISOString();
    await this.store.publication.updateRun(id, { ...patch, finished_at: now, heartbeat_at: now }).catch(() => undefined);
  }

  /** The failure's code and words, the tokens blotted out (a library's message could one day quote a header). */
  private failureOf(error: unknown): { failure: PublicationFailure; detail: string; pushes_json?: string } {
    const failure: PublicationFailure =
      error instanceof RunFailure || error instanceof HubUploadError || error instanceof PartialPushError ? error.failure : 'export_failed';
    let detail = error instanceof Error ? error.message : String(error);
    for (const secret of this.secrets()) if (secret) detail = detail.replaceAll(secret, '[token]');
    const pushes = error instanceof PartialPushError ? { pushes_json: JSON.stringify(error.pushes) } : {};
    return { failure, detail: detail.slice(0, 500), ...pushes };
  }
}

/** A push that failed after some repositories had their commit: what they received is kept with the failure. */
export class PartialPushError extends Error {
  readonly failure: PublicationFailure;

  constructor(
    error: unknown,
    readonly pushes: HubPush[],
  ) {
    super(error instanceof Error ? error.message : String(error), { cause: error });
    this.failure = error instanceof HubUploadError || error instanceof RunFailure ? error.failure : 'hub_error';
  }
}
