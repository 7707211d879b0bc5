import type { Job, JobLog, JobPlan } from './job';
import { durationWords } from './job';
import type { ArenaEvents } from './arena-events';

interface SnapshotJobSettings {
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
  leaderboard: { snapshotEveryMs: number; reactions: boolean };
  severalInstances: boolean;
}

/** Where the kept votes' snapshot lives: a file beside an SQLite store, a table of a PostgreSQL one; none in memory or when it is off. */
export function columnsSnapshotPlace(settings: SnapshotJobSettings): { file: string } | { table: true } | undefined {
  if (columnsSnapshotOff(settings) !== null) return undefined;
  return settings.database.kind === 'sqlite' ? { file: `${settings.database.path}.ranking-columns` } : { table: true };
}

function columnsSnapshotOff({ database, leaderboard }: SnapshotJobSettings): string | null {
  if (leaderboard.snapshotEveryMs === 0) return 'AGORA_LEADERBOARD_SNAPSHOT_MINUTES is 0';
  if (database.kind === 'sqlite' && database.path === ':memory:') return 'an in-memory store';
  // With reaction matches every refresh reads every vote: nothing is kept between refreshes.
  if (leaderboard.reactions) return 'AGORA_LEADERBOARD_REACTIONS is on (every refresh reads every vote)';
  return null;
}

/** Writes the leaderboard's kept vote columns (a file, or a PostgreSQL table) so that a restart reads only the changes since (docs/operations.md#leaderboard-snapshot). */
export function leaderboardSnapshotPlan(settings: SnapshotJobSettings): JobPlan {
  return {
    name: 'leaderboard-snapshot',
    purpose:
      settings.database.kind === 'sqlite'
        ? "writes the leaderboard's kept vote columns to a file beside the store, which a restart catches up from"
        : "writes the leaderboard's kept vote columns to the store's ranking_columns_parts table (one transaction), which a restart catches up from",
    schedule: `after a refresh that read every vote, then at most every ${durationWords(Math.max(settings.leaderboard.snapshotEveryMs, 1))} after a refresh`,
    on: ['leaderboard.refreshed'],
    emits: [],
    // Several instances: the holder of the leaderboard's lease (the one that fits and keeps the columns) writes it.
    lease: settings.severalInstances ? 'leaderboard' : null,
    off: columnsSnapshotOff(settings),
  };
}

/** The running job: after each refresh, asks the leaderboard to write its snapshot if one is due (one write at a time). */
export function leaderboardSnapshotJob(
  settings: SnapshotJobSettings,
  leaderboards: { saveColumnsSnapshot(): Promise<boolean> },
  events: ArenaEvents,
  log: JobLog,
): Job {
  let running: Promise<unknown> | undefined;
  let stopped = true;
  events.on('leaderboard.refreshed', () => {
    // A refresh during a write: the next refresh asks again.
    if (stopped || running) return;
    // Several instances: only the leaderboard lease's holder keeps columns (the others drop theirs when
    // they load its boards), so only it writes; the write takes a lock and leaves a newer snapshot alone.
    running = leaderboards
      .saveColumnsSnapshot()
      .catch((error: unknown) => log.error({ err: error }, 'leaderboard snapshot not written'))
      .finally(() => (running = undefined));
  });
  return {
    plan: leaderboardSnapshotPlan(settings),
    start: () => {
      stopped = false;
    },
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}
