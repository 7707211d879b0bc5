import { existsSync, statSync } from 'node:fs';
import type { Command } from 'commander';
import { z } from 'zod';
import { MAXX_SUBSETS } from '../../domain/maxx/maxx-rules';
import type { MaxxProgress, MaxxRunResult, MaxxService } from '../../services/maxx/maxx.service';
import { CliUsageError, asUsageError, parseFlags, reportingUsageErrors } from '../cli-error';

const modelId = (flag: string) => z.string().min(1, `${flag} takes a catalogue model id`);
const flagsSchema = z
  .object({
    out: z.string().min(1, '--out takes a folder').optional(),
    worker: z.boolean().optional(),
    lease: z.coerce
      .number({ error: '--lease takes seconds' })
      .positive('--lease takes seconds above 0')
      .max(86_400, '--lease takes at most 86400 seconds')
      .default(120),
    generator: modelId('--generator'),
    reviewer: modelId('--reviewer'),
    critic: modelId('--critic'),
    judge: z
      .string()
      .min(1, '--judge takes one or more catalogue model ids, separated by commas')
      .transform((value) => value.split(',').map((id) => id.trim()))
      .refine((ids) => ids.every((id) => id !== ''), '--judge takes one or more catalogue model ids, separated by commas'),
    allowSelfJudging: z.boolean().optional(),
    stylist: modelId('--stylist').optional(),
    subset: z.enum(MAXX_SUBSETS, { error: `--subset takes ${MAXX_SUBSETS.join(', ')}` }).optional(),
    language: z
      .string()
      .regex(/^[a-z]{2,3}$/, '--language takes a language code, e.g. fr')
      .optional(),
    limit: z.coerce
      .number({ error: '--limit takes a whole number' })
      .int('--limit takes a whole number')
      .positive('--limit takes a whole number above 0')
      .optional(),
    concurrency: z.coerce
      .number({ error: '--concurrency takes a whole number' })
      .int('--concurrency takes a whole number')
      .min(1, '--concurrency takes 1 to 256')
      .max(256, '--concurrency takes 1 to 256')
      .default(8),
    maxCost: z.coerce.number({ error: '--max-cost takes US dollars' }).positive('--max-cost takes US dollars above 0').optional(),
    dryRun: z.boolean().optional(),
    calibrate: z.boolean().optional(),
  })
  .superRefine((flags, context) => {
    if (!flags.worker && flags.out === undefined)
      context.addIssue({ code: 'custom', message: '--out is required (or --worker, which only processes items)' });
  });

type MaxxFlags = z.infer<typeof flagsSchema>;

/**
 * `agora maxx`: the optimised preference set (docs/datasets.md#optimised-preference-set) from the
 * store of DATABASE_URL into a folder. Resumes where a previous run with the same models stopped.
 */
export function registerMaxxCommand(program: Command): void {
  withMaxxOptions(reportingUsageErrors(program.command('maxx'))).action(async (raw: unknown) => {
    const flags = parseFlags(flagsSchema, raw);
    if (flags.out !== undefined && existsSync(flags.out) && !statSync(flags.out).isDirectory())
      throw new CliUsageError(`--out: ${flags.out} is a file, not a folder`);
    const [{ openStore, createMaxxService, sameOrganisationWarnings }, { loadConfig }, { loadCatalogue }] = await Promise.all([
      import('../../main'),
      import('../../config/config'),
      import('../../config/catalogue'),
    ]);
    const config = asUsageError(() => loadConfig(process.env));
    const models = asUsageError(() => loadCatalogue(config.modelsPath, process.env));
    const store = await openStore(config);
    try {
      const ids = {
        generator: flags.generator,
        reviewer: flags.reviewer,
        critic: flags.critic,
        judges: flags.judge,
        stylist: flags.stylist ?? flags.generator,
      };
      const service = asUsageError(() =>
        createMaxxService(config, store, models, ids, {
          leaseMs: flags.lease * 1000,
          maxCostUsd: flags.maxCost,
          calibrate: flags.calibrate === true,
          allowSelfJudging: flags.allowSelfJudging === true,
        }),
      );
      for (const warning of sameOrganisationWarnings(ids, models)) process.stderr.write(`agora maxx: warning: ${warning}\n`);
      await buildMaxx(service, flags);
    } finally {
      await store.close();
    }
  });
}

/** The command's description and flags (flagsSchema checks their values). */
function withMaxxOptions(command: Command): Command {
  return command
    .description('the optimised preference set: a better reply for real conversations, kept only when a blind judge prefers it')
    .option('--out <DIR>', 'folder to write (one sub-folder per subset, README.md card)')
    .option('--worker', 'only process items, sharing them with the other workers on the same store (no files written)')
    .option(
      '--lease <S>',
      'seconds a worker holds an item without renewing it; a dead worker’s item is taken over after them (default 120)',
    )
    .requiredOption('--generator <ID>', 'catalogue model that drafts and revises')
    .requiredOption('--reviewer <ID>', 'catalogue model that lists the draft’s defects (not the generator)')
    .requiredOption('--critic <ID>', 'catalogue model of the absolute gate')
    .requiredOption(
      '--judge <ID[,ID…]>',
      'catalogue model(s) of the blind pairwise judging, a panel when several (none may be the generator, reviewer or critic)',
    )
    .option(
      '--allow-self-judging',
      'let a judge also be the generator, reviewer or critic (said in the card: LLM judges prefer their own writing)',
    )
    .option('--stylist <ID>', 'catalogue model of the styled variant (default: the generator)')
    .option('--subset <S>', `one subset: ${MAXX_SUBSETS.join(', ')}`)
    .option('--language <L>', 'only conversations in this language')
    .option('--limit <N>', 'at most N items')
    .option('--concurrency <N>', 'items processed at once (default 8)')
    .option('--max-cost <USD>', 'send no more calls once the run has spent this much (prices: the catalogue’s pricing)')
    .option('--calibrate', 'the judge also compares the original replies; the card reports its agreement with the visitors')
    .option('--dry-run', 'print the plan (items per subset and language, estimated calls, tokens and cost) and call no model');
}

/** Prints the plan (--dry-run), or runs the items, writes the set into --out and prints what was done. */
async function buildMaxx(service: MaxxService, flags: MaxxFlags): Promise<void> {
  const options = {
    subsets: flags.subset ? [flags.subset] : undefined,
    language: flags.language,
    limit: flags.limit,
    concurrency: flags.concurrency,
  };
  if (flags.dryRun) {
    process.stdout.write(`${JSON.stringify(await service.plan(options))}\n`);
    return;
  }
  const progress = await progressReporter();
  const result = await service.run(options, progress.update).finally(progress.stop);
  if (result.items === 0) {
    // Nothing to build is the operator's input, not a success: the card still says why, then exit 2.
    const reason = await service.whyNoItem(options);
    if (flags.out !== undefined) await service.assemble(flags.out, reason);
    throw new CliUsageError(`no eligible item: ${reason}`);
  }
  const written = flags.out === undefined ? undefined : await service.assemble(flags.out);
  process.stdout.write(
    `${JSON.stringify({ ...result, ...(written ? { rows: written.rows, card: written.cardPath, people: written.people } : {}) })}\n`,
  );
  reportIncompleteRun(result);
}

/** A run stopped at --max-cost or with items left unfinished says so on stderr and exits 1: the same command goes on. */
function reportIncompleteRun(result: MaxxRunResult): void {
  if (result.stoppedAtCost) {
    process.stderr.write(
      `agora maxx: stopped at --max-cost after spending $${Object.values(result.costUsd)
        .reduce((sum, cost) => sum + cost, 0)
        .toFixed(4)}; the same command with a higher limit goes on where it stopped\n`,
    );
    process.exitCode = 1;
  } else if (result.unfinished > 0) {
    process.stderr.write(
      `agora maxx: ${result.unfinished} items left unfinished by failing providers; run the same command again to take them up\n`,
    );
    process.exitCode = 1;
  }
}

/**
 * Progress on stderr: a bar with items done, rows kept, spend and time left on a terminal; plain
 * lines (at most one a second) otherwise, for logs.
 */
async function progressReporter(): Promise<{ update: (state: MaxxProgress) => void; stop: () => void }> {
  if (process.stderr.isTTY) {
    const { SingleBar } = await import('cli-progress');
    const bar = new SingleBar({
      stream: process.stderr,
      format: 'maxx [{bar}] {value}/{total} items | {kept} kept | {calls} calls ({cached} cached) | ${spent} | {eta_formatted} left',
      hideCursor: true,
    });
    let started = false;
    return {
      update: (state) => {
        const payload = { kept: state.kept, calls: state.calls, cached: state.cachedCalls, spent: state.spentUsd.toFixed(4) };
        if (!started) bar.start(state.total, state.done, payload);
        started = true;
        bar.update(state.done, payload);
      },
      stop: () => bar.stop(),
    };
  }
  let last = 0;
  const started = Date.now();
  return {
    update: (state) => {
      const now = Date.now();
      if (now - last < 1000 && state.done < state.total) return;
      last = now;
      const rate = state.done / Math.max(1, (now - started) / 1000);
      const eta = rate > 0 ? Math.round((state.total - state.done) / rate) : 0;
      process.stderr.write(
        `maxx ${state.done}/${state.total} items, ${state.kept} kept, ${state.calls} calls (${state.cachedCalls} cached), $${state.spentUsd.toFixed(4)} spent, about ${eta} s left\n`,
      );
    },
    stop: () => undefined,
  };
}
