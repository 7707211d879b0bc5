import type { Job, JobLog, JobPlan } from './job';
import { durationWords } from './job';

const CHECK_EVERY_MS = 15 * 60_000;

interface PublicationJobSettings {
  console: { publication: { schedule: 'off' | 'daily' | 'weekly' } };
}

/**
 * The scheduled publication: an export, then its push to the Hub, daily or weekly. The console can
 * turn it on or change it without a restart, so the job always looks (one read of the settings);
 * off by default. The console's own exports and pushes take the same lease.
 */
export function publicationPlan(settings: PublicationJobSettings): JobPlan {
  const schedule = settings.console.publication.schedule;
  return {
    name: 'publication',
    purpose: 'exports the open datasets and pushes them to the Hugging Face Hub when the scheduled publication is due',
    schedule:
      `every ${durationWords(CHECK_EVERY_MS)} it checks whether a publication is due: ` +
      `${schedule === 'off' ? 'never unless the console sets daily or weekly' : `${schedule} (AGORA_PUBLICATION_SCHEDULE) unless the console sets another`}`,
    on: [],
    emits: [],
    lease: 'publication',
    off: null,
  };
}

export interface ScheduledPublisher {
  publishIfDue(): Promise<boolean>;
  /** Waits for the run under way (an abort stops a push between requests). */
  drain(abort: boolean): Promise<void>;
}

export function publicationJob(settings: PublicationJobSettings, publisher: ScheduledPublisher, log: JobLog): Job {
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> = Promise.resolve();
  const check = () => {
    checking = checking.then(async () => {
      try {
        if (await publisher.publishIfDue()) log.info({}, 'scheduled publication started');
      } catch (error) {
        log.error({ err: error }, 'the scheduled publication could not start');
      }
    });
  };
  return {
    plan: publicationPlan(settings),
    start: () => {
      timer = setInterval(check, CHECK_EVERY_MS);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      await checking;
      await publisher.drain(true);
    },
  };
}
