import type { Command } from 'commander';
import { z } from 'zod';
import { DATASET_NAMES } from '../../domain/datasets/export-columns';
import { DATASET_FORMATS } from '../../adapters/dataset-files/dataset-writers';
import { PREFERENCE_STRENGTHS } from '../../domain/datasets/preference-rows';
import type { DatasetExportRequest, DatasetExportResult, ExportProgress } from '../../services/dataset-export.service';
import { join } from 'node:path';
import { CliUsageError, asUsageError, parseFlags, reportingUsageErrors } from '../cli-error';

/** A comma-separated flag value: every item one of `allowed` (when given), no empty item, no duplicate. */
function listFlag<T extends string>(flag: string, allowed?: readonly T[]) {
  return z.string().transform((text, context) => {
    const items = text.split(',').map((item) => item.trim());
    for (const item of items) {
      if (item === '' || (allowed && !allowed.includes(item as T))) {
        context.addIssue({
          code: 'custom',
          message: `${flag}: ${item === '' ? 'an empty item' : `unknown ${JSON.stringify(item)}`} in ${JSON.stringify(text)}${allowed ? ` (takes ${allowed.join(', ')})` : ''}`,
        });
        return z.NEVER;
      }
    }
    return [...new Set(items)] as T[];
  });
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/** `--from`/`--to` bounds as instants: a bare date is the whole UTC day (so `--to` includes it). */
function dateFlag(flag: string, endOfDay: boolean) {
  return z
    .string()
    .regex(DATE, `${flag} takes a date (YYYY-MM-DD) or an ISO-8601 time with its zone`)
    .transform((text, context) => {
      const time = Date.parse(text.length === 10 ? `${text}T00:00:00Z` : text);
      if (Number.isNaN(time)) {
        context.addIssue({ code: 'custom', message: `${flag}: ${JSON.stringify(text)} is not a date` });
        return z.NEVER;
      }
      return new Date(text.length === 10 && endOfDay ? time + 86_400_000 : time).toISOString();
    });
}

const flagsSchema = z
  .object({
    out: z.string().min(1, '--out takes a folder'),
    format: listFlag('--format', DATASET_FORMATS).default(['parquet', 'jsonl']),
    datasets: listFlag('--datasets', DATASET_NAMES).default([...DATASET_NAMES]),
    language: listFlag('--language').optional(),
    category: listFlag('--category').optional(),
    from: dateFlag('--from', false).optional(),
    to: dateFlag('--to', true).optional(),
    license: listFlag('--license').optional(),
    excludeLicense: listFlag('--exclude-license').optional(),
    openWeightsOnly: z.boolean().optional(),
    minPrefStrength: z.enum(PREFERENCE_STRENGTHS, { error: `--min-pref-strength takes ${PREFERENCE_STRENGTHS.join(', ')}` }).optional(),
    datasetLicense: z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]*$/, '--dataset-license takes a Hugging Face licence id, e.g. cc-by-4.0, etalab-2.0 or other')
      .optional(),
    progress: z.boolean().optional(),
    threads: z.boolean().optional(),
    optimised: z.boolean().optional(),
  })
  .superRefine((flags, context) => {
    if (flags.from && flags.to && flags.from >= flags.to) context.addIssue({ code: 'custom', message: '--from must come before --to' });
  });

/**
 * `agora export`: the open datasets (docs/datasets.md) from the store of DATABASE_URL into a folder,
 * with their dataset card. Prints one line per file on stdout; a progress bar goes to stderr on a
 * terminal (or with --progress).
 */
export function registerExportCommand(program: Command): void {
  reportingUsageErrors(program.command('export'))
    .description('open datasets: a public and a gated dataset (compar:IA-compatible and TRL-ready subsets), each with its card')
    .requiredOption('--out <DIR>', 'folder to write: DIR/public/ and DIR/gated/, each one dataset repository with its README.md card')
    .option('--format <LIST>', `comma-separated: ${DATASET_FORMATS.join(', ')} (default both)`)
    .option('--datasets <LIST>', `comma-separated: ${DATASET_NAMES.join(', ')} (default all)`)
    .option('--language <LIST>', 'conversations whose main language is one of these codes (e.g. fr,oc)')
    .option('--category <LIST>', 'conversations with at least one of these topics')
    .option('--from <DATE>', 'conversations started on or after this date (YYYY-MM-DD, UTC) or time')
    .option('--to <DATE>', 'conversations started on or before this date (the whole day) or before this time')
    .option('--license <LIST>', 'only answers of models under these licences (catalogue `license`, case-insensitive)')
    .option('--exclude-license <LIST>', 'leave out answers of models under these licences')
    .option('--open-weights-only', 'only answers of open-weights models')
    .option('--min-pref-strength <S>', `dpo/reward pairs at least this firm: ${PREFERENCE_STRENGTHS.join(', ')} (default weak = all)`)
    .option('--dataset-license <ID>', 'licence the card declares for the data (Hugging Face id; default other)')
    .option('--progress', 'show the progress bar even when stderr is not a terminal')
    .option('--optimised', 'also write the last optimised preference set built by agora maxx --out, in optimised/')
    .option('--threads', "build compar:IA's and the training subsets in two worker threads (faster with idle cores, more memory)")
    .action(async (raw: Record<string, unknown>) => {
      const flags = parseFlags(flagsSchema, raw);
      const request: DatasetExportRequest = {
        outDir: flags.out,
        formats: flags.format,
        datasets: flags.datasets,
        languages: flags.language,
        categories: flags.category,
        from: flags.from,
        until: flags.to,
        licenses: flags.license,
        excludeLicenses: flags.excludeLicense,
        openWeightsOnly: flags.openWeightsOnly,
        minPrefStrength: flags.minPrefStrength,
        datasetLicense: flags.datasetLicense,
      };
      const result = await runExport(request, {
        progress: flags.progress === true || process.stderr.isTTY === true,
        threads: flags.threads === true,
        optimised: flags.optimised === true,
      });
      for (const file of result.files) process.stdout.write(`${file.path}\t${file.rows} rows\n`);
      if (result.optimised)
        process.stdout.write(
          `${result.optimised.cardPath}\toptimised set (${Object.entries(result.optimised.rows)
            .map(([subset, rows]) => `${subset} ${rows} rows`)
            .join(', ')})\n`,
        );
      for (const card of result.cards)
        process.stdout.write(
          `${card.path}\t${card.tier === 'gated' ? 'dataset card, gated dataset (publish as its own repository, access on request)' : 'dataset card, public dataset'} (${result.conversationsRead} conversations read)\n`,
        );
    });
}

async function runExport(
  request: DatasetExportRequest,
  options: { progress: boolean; threads: boolean; optimised: boolean },
): Promise<DatasetExportResult & { optimised?: { cardPath: string; rows: Record<string, number> } }> {
  const [
    { openStore },
    { loadConfig },
    { loadCatalogue },
    { DatasetExportService },
    { exportModelFacts },
    { SingleBar },
    { writeLatestOptimisedSet },
  ] = await Promise.all([
    import('../../main'),
    import('../../config/config'),
    import('../../config/catalogue'),
    import('../../services/dataset-export.service'),
    import('../../domain/datasets/export-model-facts'),
    import('cli-progress'),
    import('../../services/maxx/maxx-set-writer'),
  ]);
  const config = asUsageError(() => loadConfig(process.env));
  const models = asUsageError(() => loadCatalogue(config.modelsPath, process.env));
  const store = await openStore(config);
  // First, so that asking for a set that was never built refuses before anything is written.
  const optimised = options.optimised
    ? await writeLatestOptimisedSet(store, join(request.outDir, 'optimised'), config.privateCohorts)
    : undefined;
  if (optimised === null) {
    await store.close();
    throw new CliUsageError('--optimised: no optimised preference set has been built on this store yet (agora maxx --out DIR builds one)');
  }
  const bar = options.progress
    ? new SingleBar({
        stream: process.stderr,
        noTTYOutput: !process.stderr.isTTY,
        format: 'export [{bar}] {value}/{total} conversations | {eta_formatted} left',
        hideCursor: true,
      })
    : undefined;
  let started = false;
  const progress: ExportProgress = (done, total) => {
    if (!bar) return;
    if (!started) bar.start(total, done);
    else bar.setTotal(total);
    started = true;
    bar.update(done);
  };
  try {
    const service = new DatasetExportService(store.datasets, exportModelFacts(models, config.impact), {
      privateCohorts: config.privateCohorts,
      threads: options.threads,
    });
    return { ...(await service.export({ ...request, optimisedRows: optimised?.rows }, progress)), ...(optimised ? { optimised } : {}) };
  } finally {
    bar?.stop();
    await store.close();
  }
}
