import { availableParallelism } from 'node:os';
import type { Command } from 'commander';
import { z } from 'zod';
import { asUsageError, parseFlags, reportingUsageErrors } from '../cli-error';

const flagsSchema = z.object({
  limit: z
    .string()
    .regex(/^[1-9]\d*$/, '--limit takes a positive whole number')
    .transform(Number)
    .optional(),
  retryFailed: z.boolean().optional(),
  model: z.union([z.string().min(1, '--model takes a catalogue model id'), z.literal(false)]).optional(),
  threads: z.string().regex(/^\d+$/, '--threads takes a whole number (0: the rules layer on the main thread)').transform(Number).optional(),
  progress: z.boolean().optional(),
  stages: z.boolean().optional(),
});

/** Conversations per pass: big enough to keep the model busy, small enough to report progress. */
const BATCH = 500;

/**
 * `agora postprocess`: language, topics and personal-data screening of stored conversations, for
 * backfills (the server does the same in the background). Every duel not streaming counts as
 * finished. The model layer is AGORA_ANNOTATION_MODEL unless `--model ID` or `--no-model`.
 * Prints one JSON summary line on stdout; progress goes to stderr on a terminal.
 */
export function registerPostprocessCommand(program: Command): void {
  reportingUsageErrors(program.command('postprocess'))
    .description('language, topics and personal-data screening of stored conversations (backfill)')
    .option('--limit <N>', 'at most N conversations')
    .option('--retry-failed', 'put conversations whose post-processing failed back in the queue first')
    .option('--model <ID>', 'catalogue model of the model layer (default: AGORA_ANNOTATION_MODEL)')
    .option('--no-model', 'rules and languages only; topics stay not configured')
    .option('--threads <N>', 'worker threads of the rules layer (default: one per core)')
    .option('--progress', 'a progress bar even when stderr is not a terminal')
    .option('--stages', 'print where the time went, stage by stage (read, rules, clusters, annotate, write)')
    .action(async (raw: Record<string, unknown>) => {
      const flags = parseFlags(flagsSchema, raw);
      const [{ openStore, createAnnotator, createPostprocessService }, { loadConfig }, { loadCatalogue }, { systemRuntime }] =
        await Promise.all([
          import('../../main'),
          import('../../config/config'),
          import('../../config/catalogue'),
          import('../../services/ports/runtime'),
        ]);
      const config = asUsageError(() => loadConfig(process.env));
      const modelId = flags.model === false ? undefined : (flags.model ?? config.postprocess.annotationModel);
      const annotator =
        modelId === undefined
          ? undefined
          : asUsageError(
              () => createAnnotator(config, loadCatalogue(config.modelsPath, process.env), undefined, modelId),
              flags.model ? '--model' : undefined,
            );
      const store = await openStore(config);
      // A backfill retries at once (nobody waits between passes) and has the machine to itself: the rules layer on one thread per core.
      const threads = flags.threads ?? availableParallelism();
      const service = createPostprocessService(config, store, systemRuntime, annotator, { retryDelayMs: 0, threads });
      try {
        const requeued = flags.retryFailed ? await store.annotations.requeueFailed(new Date().toISOString()) : 0;
        const total = { processed: 0, done: 0, flagged: 0, retrying: 0, failed: 0 };
        const limit = flags.limit ?? Number.POSITIVE_INFINITY;
        const now = new Date().toISOString();
        const ahead = Math.min(limit, await store.annotations.countDue({ now, idleBefore: now, modelConfigured: service.modelConfigured }));
        // The threads and their detectors load before the clock starts: the rate shown is the work's.
        await service.warmUp();
        const progress = await postprocessProgress(ahead, flags.progress === true || process.stderr.isTTY === true);
        await service.runUntilDone(
          BATCH,
          limit,
          () => new Date(),
          (report) => {
            for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += report[key];
            progress.update(total.processed, total.flagged, total.failed);
          },
        );
        progress.stop(total, flags.stages ? service.stages.toString() : undefined);
        const counts = await store.annotations.countByStatus();
        process.stdout.write(
          `${JSON.stringify({ ...total, requeued, model: service.modelConfigured ? 'configured' : 'not_configured', store: counts })}\n`,
        );
      } finally {
        await service.close();
        await store.close();
      }
    });
}

/**
 * Progress on stderr: a bar with the rate and the time left on a terminal (or with --progress),
 * plain lines every ten seconds otherwise (logs, CI), and a closing line with the counts.
 */
async function postprocessProgress(ahead: number, bar: boolean) {
  const started = performance.now();
  const rate = (done: number) => done / Math.max(0.001, (performance.now() - started) / 1000);
  let lastLine = started;
  const drawn = bar
    ? new (await import('cli-progress')).SingleBar({
        stream: process.stderr,
        noTTYOutput: !process.stderr.isTTY,
        format:
          'post-processing [{bar}] {value}/{total} conversations | {rate}/s | {eta_formatted} left | {flagged} flagged, {failed} failed',
        hideCursor: true,
      })
    : undefined;
  drawn?.start(ahead, 0, { rate: 0, flagged: 0, failed: 0 });
  return {
    update(done: number, flagged: number, failed: number): void {
      if (drawn) {
        // Conversations put back for a retry are done again: the total grows with them.
        if (done > ahead) drawn.setTotal(done);
        drawn.update(done, { rate: Math.round(rate(done)), flagged, failed });
        return;
      }
      if (performance.now() - lastLine < 10_000) return;
      lastLine = performance.now();
      const left = Math.max(0, ahead - done) / Math.max(1e-9, rate(done));
      process.stderr.write(
        `post-processed ${done} of ${ahead} conversations (${Math.round(rate(done))}/s, about ${Math.ceil(left)} s left; ${flagged} flagged, ${failed} failed)\n`,
      );
    },
    stop(total: { processed: number; done: number; flagged: number; retrying: number; failed: number }, stages: string | undefined): void {
      drawn?.stop();
      // Where the time went (the bench reads it), before the closing line: event-loop time per stage, `rules` the wait for the threads.
      if (stages) process.stderr.write(`post-processing stages: ${stages}\n`);
      const seconds = (performance.now() - started) / 1000;
      process.stderr.write(
        `post-processed ${total.processed} conversations in ${seconds.toFixed(1)} s (${Math.round(total.processed / Math.max(0.001, seconds))}/s): ${total.done} done, ${total.flagged} flagged, ${total.retrying} to retry, ${total.failed} failed\n`,
      );
    },
  };
}
