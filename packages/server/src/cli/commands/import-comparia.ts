import type { SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { z } from 'zod';
import type { ImportedFileSummary, ImportProgress } from '../../services/comparia-import.service';
import { VoteFileError } from '../../adapters/vote-files/vote-file-error';
import { asUsageError, CliUsageError, parseFlags, reportingUsageErrors } from '../cli-error';

const filesFlag = (flag: string) => z.array(z.string().min(1, `${flag} takes file paths`)).min(1, `${flag} takes file paths`);

const flagsSchema = z
  .object({
    conversations: filesFlag('--conversations').optional(),
    votes: filesFlag('--votes').optional(),
    reactions: filesFlag('--reactions').optional(),
    arena: filesFlag('--arena').optional(),
    trustSource: z.boolean().optional(),
    batchSize: z
      .string()
      .regex(/^[1-9]\d*$/, '--batch-size takes a positive whole number')
      .transform(Number)
      .optional(),
  })
  .refine(
    (flags) => flags.conversations ?? flags.votes ?? flags.reactions ?? flags.arena,
    'give at least one of --conversations, --votes, --reactions, --arena',
  );

/**
 * `agora import comparia`: loads compar:IA's public dataset files (Parquet or JSON Lines, optionally
 * gzipped) into the store (DATABASE_URL). Running it again adds nothing. Prints one JSON summary
 * line per file on stdout; a progress bar goes to stderr on a terminal.
 */
export function registerImportCommand(program: Command): void {
  const importCommand = program.command('import').description('load public datasets into the store');
  reportingUsageErrors(importCommand.command('comparia'))
    .description("load compar:IA's public dataset files (comparia-conversations, -votes, -reactions) into the store")
    .option(
      '--conversations <FILE...>',
      'comparia-conversations file(s): .parquet, .jsonl, .jsonl.gz (several for shards, e.g. train-*.parquet)',
    )
    .option('--votes <FILE...>', 'comparia-votes file(s)')
    .option('--reactions <FILE...>', 'comparia-reactions file(s)')
    .option(
      '--trust-source',
      "take compar:IA's screening as Agora's: store its conversations as screened (default: Agora's post-processing screens them)",
    )
    .option('--arena <FILE...>', 'compar:IA per-response arena data file(s) (comparia-fr-arena: one row per turn, with its verdict)')
    .option('--batch-size <N>', 'rows per transaction (default 2000)')
    .action(async (raw: Record<string, unknown>) => {
      const { batchSize, trustSource, ...files } = parseFlags(flagsSchema, raw);
      const [{ openStore }, { loadConfig }, { ComparIaImportService }, { SingleBar }] = await Promise.all([
        import('../../main'),
        import('../../config/config'),
        import('../../services/comparia-import.service'),
        import('cli-progress'),
      ]);
      const config = asUsageError(() => loadConfig(process.env));
      const store = await openStore(config);
      const bar = process.stderr.isTTY ? fileProgressBar(SingleBar) : undefined;
      try {
        const summaries = await new ComparIaImportService(store).importFiles(files, {
          batchSize,
          onProgress: (progress) => bar?.onProgress(progress),
          trustSource: trustSource === true,
        });
        bar?.stop();
        for (const summary of summaries) process.stdout.write(`${JSON.stringify(summaryLine(summary))}\n`);
      } catch (error) {
        bar?.stop();
        if (error instanceof VoteFileError) {
          throw new CliUsageError(
            error.location === undefined
              ? error.message
              : `${error.message} (nothing of its batch was imported; earlier batches were, and a second run leaves them as they are)`,
          );
        }
        throw error;
      } finally {
        await store.close();
      }
    });
}

/** A bar per file on a terminal, started again when the import moves to the next file. */
function fileProgressBar(Bar: typeof SingleBar): {
  onProgress: (progress: ImportProgress) => void;
  stop: () => void;
} {
  const bar = new Bar({
    stream: process.stderr,
    format: 'import {dataset} [{bar}] {percentage}% | {rows} rows | {eta_formatted} left',
    hideCursor: true,
  });
  let barOf: string | undefined;
  return {
    onProgress: (progress) => {
      const payload = { dataset: progress.dataset, rows: progress.rows.toLocaleString('en') };
      if (barOf !== progress.path) {
        if (barOf !== undefined) bar.stop();
        bar.start(Math.max(progress.total, 1), progress.done, payload);
        barOf = progress.path;
      } else bar.update(progress.done, payload);
    },
    stop: () => bar.stop(),
  };
}

function summaryLine(summary: ImportedFileSummary) {
  return {
    dataset: summary.dataset,
    file: summary.path,
    rows_read: summary.read,
    inserted: summary.inserted,
    updated: summary.updated,
    already_present: summary.present,
    skipped: summary.skipped,
    conversations_created: summary.conversationsCreated,
    seconds: Math.round(summary.seconds * 100) / 100,
    rows_per_second: summary.seconds > 0 ? Math.round(summary.read / summary.seconds) : null,
  };
}
