import type { Command } from 'commander';
import { z } from 'zod';
import { CliUsageError, parseFlags, reportingUsageErrors } from '../cli-error';
import { RECOMMENDED_LOCAL_MODELS } from '../../config/recommended-local-models';
import type { PullLocalModelsRequest } from '../../services/local-models.service';

const ids = RECOMMENDED_LOCAL_MODELS.map((model) => model.id);

const flagsSchema = z.object({
  models: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    )
    .refine((list) => list.length > 0 && list.every((id) => ids.includes(id)), `--models takes ${ids.join(', ')}`)
    .optional(),
  dir: z.string().min(1).default('./local-models'),
  catalogue: z.string().min(1).default('./models.local.yaml'),
  progress: z.boolean().optional(),
});

/** `agora models pull`: the recommended local models, downloaded and written into a catalogue. */
export function registerModelsCommand(program: Command): void {
  const models = program.command('models').description('local models run by llama.cpp in the arena (docs/local-models.md)');
  reportingUsageErrors(models.command('pull'))
    .description(
      `download small open models to run without any key (default: ${RECOMMENDED_LOCAL_MODELS.filter((model) => model.default)
        .map((model) => model.id)
        .join(', ')}) and write their catalogue`,
    )
    .option('--models <ids>', `which ones, comma-separated: ${ids.join(', ')}`)
    .option('--dir <folder>', 'where the files go (default ./local-models)')
    .option('--catalogue <file>', 'the catalogue written for them (default ./models.local.yaml)')
    .option('--progress', 'a progress bar even when stderr is not a terminal')
    .action(async (raw: Record<string, unknown>) => {
      const flags = parseFlags(flagsSchema, raw);
      const chosen = RECOMMENDED_LOCAL_MODELS.filter((model) => (flags.models ? flags.models.includes(model.id) : model.default));
      const { pullLocalModels } = await import('../../services/local-models.service');
      const { ModelDownloadError } = await import('../../adapters/model-download');
      const bar = flags.progress === true || process.stderr.isTTY === true ? await progressBar() : undefined;
      try {
        const pulled = await pullLocalModels({
          models: chosen,
          dir: flags.dir,
          cataloguePath: flags.catalogue,
          endpoint: process.env.HF_ENDPOINT || 'https://huggingface.co',
          token: process.env.HF_TOKEN || undefined,
          ...downloadReporter(bar),
        });
        bar?.stop();
        for (const model of pulled)
          process.stdout.write(
            `${model.path}\t${model.downloaded ? `downloaded, ${model.bytes} bytes, checksum verified` : 'already there'}\n`,
          );
        process.stdout.write(
          `${flags.catalogue}\tcatalogue of ${pulled.length} local models (npm start uses it when no hosted key is set)\n`,
        );
      } catch (error) {
        bar?.stop();
        if (error instanceof ModelDownloadError) throw new CliUsageError(error.message);
        throw error;
      }
    });
}

async function progressBar() {
  const { SingleBar } = await import('cli-progress');
  return new SingleBar({
    stream: process.stderr,
    noTTYOutput: !process.stderr.isTTY,
    format: '{model} [{bar}] {percentage}% | {value}/{total} bytes | {eta_formatted} left',
    hideCursor: true,
  });
}

/** Each download's progress on stderr: on the bar when there is one, else a plain line every 10 % (logs, CI). */
function downloadReporter(
  bar: Awaited<ReturnType<typeof progressBar>> | undefined,
): Pick<PullLocalModelsRequest, 'onStart' | 'onProgress'> {
  let lastLine = -1;
  return {
    onStart: (model) => {
      lastLine = -1;
      bar?.start(model.approxBytes, 0, { model: model.id });
      if (!bar) process.stderr.write(`${model.id}: ${model.repo}/${model.file}\n`);
    },
    onProgress: (model, progress) => {
      if (bar) {
        bar.setTotal(progress.total);
        bar.update(progress.done, { model: model.id });
        return;
      }
      // Plain lines (logs, CI): one every 10 %.
      const tenth = Math.floor((progress.done / Math.max(1, progress.total)) * 10);
      if (tenth !== lastLine) {
        lastLine = tenth;
        process.stderr.write(
          `${model.id}: ${tenth * 10} % (${(progress.done / 1e6).toFixed(1)} of ${(progress.total / 1e6).toFixed(1)} MB)\n`,
        );
      }
    },
  };
}
