import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { z } from 'zod';
import { screenText } from '../../domain/privacy';
import { asUsageError, parseFlags, reportingUsageErrors } from '../cli-error';

const flagsSchema = z.object({ llm: z.string().min(1, '--llm takes a catalogue model id').optional() });

/**
 * `agora pii`: one text per line on stdin, one JSON verdict per line on stdout,
 * `{"pii": bool, "kinds": [...]}`, from the deterministic layer (docs/privacy.md). `--llm ID` adds
 * the model layer with that catalogue model (the kinds of both layers, rules first); a line whose
 * model call failed gets `"model_error"` with the rules' verdict, and the command exits 1.
 */
export function registerPiiCommand(program: Command): void {
  reportingUsageErrors(program.command('pii'))
    .description('personal data in each stdin line, one JSON verdict per line')
    .option('--llm <ID>', 'add the model layer with this catalogue model')
    .action(async (raw: Record<string, unknown>) => {
      const { llm } = parseFlags(flagsSchema, raw);
      const annotator = llm === undefined ? undefined : await loadAnnotator(llm);
      let failures = 0;
      for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
        const { kinds } = screenText(line);
        if (!annotator || line.trim() === '') {
          process.stdout.write(`${JSON.stringify({ pii: kinds.length > 0, kinds })}\n`);
          continue;
        }
        try {
          const { personalData } = await annotator.annotate([{ prompt: line, a: '', b: '' }]);
          const all = [...new Set<string>([...kinds, ...personalData.kinds])];
          process.stdout.write(`${JSON.stringify({ pii: all.length > 0, kinds: all })}\n`);
        } catch (error) {
          failures += 1;
          const message = error instanceof Error ? error.message : String(error);
          process.stdout.write(`${JSON.stringify({ pii: kinds.length > 0, kinds, model_error: message })}\n`);
        }
      }
      if (failures > 0) {
        process.stderr.write(`agora: the model layer failed on ${failures} line(s); their verdicts hold the rules' findings only\n`);
        process.exitCode = 1;
      }
    });
}

/** The model layer of the screening, with a catalogue model (config errors become usage errors). */
async function loadAnnotator(modelId: string) {
  const [{ createAnnotator }, { loadConfig }, { loadCatalogue }] = await Promise.all([
    import('../../main'),
    import('../../config/config'),
    import('../../config/catalogue'),
  ]);
  const config = asUsageError(() => loadConfig(process.env));
  return asUsageError(() => createAnnotator(config, loadCatalogue(config.modelsPath, process.env), undefined, modelId)!, '--llm');
}
