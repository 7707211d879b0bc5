import type { PostprocessReport, PostprocessService } from '../services/postprocess.service';
import type { SingletonLease } from '../db/singleton-lease';
import type { ArenaEvents } from './arena-events';
import { type Job, type JobLog, type JobPlan, durationWords } from './job';
import { PostprocessJob } from './postprocess.job';

interface PostprocessJobSettings {
  postprocess: { enabled: boolean; everyMs: number };
  severalInstances: boolean;
}

/** Conversations one pass screens at most (a full pass starts the next one at once). */
const BATCH_SIZE = 50;

const afterVoteMs = (settings: PostprocessJobSettings) => Math.min(settings.postprocess.everyMs, 1000);

/** Screens finished conversations (personal data, language, topic); off with AGORA_POSTPROCESS=false. */
export function postprocessPlan(settings: PostprocessJobSettings): JobPlan {
  return {
    name: 'postprocess',
    purpose: 'screens finished conversations for personal data and gives them their languages and topic, before any export',
    schedule:
      `every ${durationWords(settings.postprocess.everyMs)}, and ${durationWords(afterVoteMs(settings))} after a vote ` +
      `(the votes of a burst share one pass); ${BATCH_SIZE} conversations a pass`,
    on: ['vote.recorded'],
    emits: ['conversations.screened'],
    lease: settings.severalInstances ? 'postprocess' : null,
    off: settings.postprocess.enabled ? null : 'AGORA_POSTPROCESS is off',
  };
}

/** The running job; with several instances a pass runs where the lease is held (each conversation is screened once). */
export function postprocessJob(
  settings: PostprocessJobSettings,
  service: Pick<PostprocessService, 'runDue'>,
  singleton: SingletonLease | undefined,
  events: ArenaEvents,
  log: JobLog,
  onPass: (report: PostprocessReport) => void,
): Job & { passes: PostprocessJob } {
  const passes = new PostprocessJob(
    leasedPasses(service, singleton, settings),
    { everyMs: settings.postprocess.everyMs, afterVoteMs: afterVoteMs(settings), batchSize: BATCH_SIZE },
    (message, error) => log.error({ err: error }, message),
    (report) => {
      onPass(report);
      if (report.processed > 0) log.info({ postprocess: report }, 'post-processing pass');
      if (report.done > 0) events.emit('conversations.screened', { done: report.done });
    },
  );
  events.on('vote.recorded', () => passes.voteRecorded());
  return { plan: postprocessPlan(settings), passes, start: () => passes.start(), stop: () => passes.stop() };
}

function leasedPasses(
  service: Pick<PostprocessService, 'runDue'>,
  singleton: SingletonLease | undefined,
  settings: PostprocessJobSettings,
): Pick<PostprocessService, 'runDue'> {
  if (!singleton) return service;
  const idle: PostprocessReport = { processed: 0, done: 0, flagged: 0, retrying: 0, failed: 0 };
  return {
    runDue: (limit) =>
      singleton.whenHeld(
        'postprocess',
        Math.max(30_000, 6 * settings.postprocess.everyMs),
        () => service.runDue(limit),
        () => Promise.resolve(idle),
      ),
  };
}
