import type { ArenaEventName } from './arena-events';

/** What a background job is and when it runs, in words: what `agora jobs` prints, from the configuration alone. */
export interface JobPlan {
  /** Its name in logs and in `agora jobs`. */
  readonly name: string;
  /** What it does, in one sentence. */
  readonly purpose: string;
  /** When it runs besides the events it listens to (start, timers), in words with the configured values. */
  readonly schedule: string;
  /** The events that start a run. */
  readonly on: readonly ArenaEventName[];
  /** The events a run may emit. */
  readonly emits: readonly ArenaEventName[];
  /** With several instances, the store lease that lets one instance run it at a time; null: every instance runs it. */
  readonly lease: string | null;
  /** Off by configuration: why (the variable that turns it on); null when it runs. */
  readonly off: string | null;
}

/** A running background job: started by the composition root after the HTTP app is built, stopped on close. */
export interface Job {
  readonly plan: JobPlan;
  /** Starts its timers (and may run once before resolving: a sweep at start). */
  start(): Promise<void> | void;
  /** Stops its timers and waits for the run under way. */
  stop(): Promise<void>;
}

/** Starts the jobs that are on, in order (a start-up sweep finishes before the next job starts). */
export async function startJobs(jobs: readonly Job[]): Promise<void> {
  for (const job of jobs) if (job.plan.off === null) await job.start();
}

/** Stops the jobs in the reverse order of their start. */
export async function stopJobs(jobs: readonly Job[]): Promise<void> {
  for (const job of [...jobs].reverse()) if (job.plan.off === null) await job.stop();
}

/** A duration in words for the plans: "90 s", "6 h", "250 ms". */
export function durationWords(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** The lines a job writes (pino's logger has this shape). */
export interface JobLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
