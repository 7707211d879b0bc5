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
});

/** Conversations per pass: big enough to keep the model busy, small enough to report progress. */
const BATCH = 100;

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
    .action(async (raw: Record<string, unknown>) => {
      const flags = parseFlags(flagsSchema, raw);
      const [{ openStore, createAnnotator, createPostprocessService }, { loadConfig }, { loadCatalogue }, { systemRuntime }] =
        await Promise.all([
          import('../../main'),
          import('../../config/config'),
          import('../../config/catalogue'),
          import('../../services/runtime'),
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
      // A backfill retries at once: nobody waits between passes.
      const service = createPostprocessService(config, store, systemRuntime, annotator, { retryDelayMs: 0 });
      try {
        const requeued = flags.retryFailed ? await store.annotations.requeueFailed(new Date().toISOString()) : 0;
        const total = { processed: 0, done: 0, flagged: 0, retrying: 0, failed: 0 };
        const limit = flags.limit ?? Number.POSITIVE_INFINITY;
        const progress = process.stderr.isTTY;
        for (;;) {
          const batch = Math.min(BATCH, limit - total.processed);
          if (batch <= 0) break;
          const report = await service.runDue(batch, new Date());
          for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += report[key];
          if (progress)
            process.stderr.write(`\rpost-processed ${total.processed} conversations (${total.flagged} flagged, ${total.failed} failed)`);
          // Conversations put back for a retry come due again at once, so only an empty pass ends it.
          if (report.processed === 0) break;
        }
        if (progress) process.stderr.write('\n');
        const counts = await store.annotations.countByStatus();
        process.stdout.write(
          `${JSON.stringify({ ...total, requeued, model: service.modelConfigured ? 'configured' : 'not_configured', store: counts })}\n`,
        );
      } finally {
        await store.close();
      }
    });
}
