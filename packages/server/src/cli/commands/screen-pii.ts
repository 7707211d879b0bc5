import { createInterface } from 'node:readline';
import type { Command, CommanderError } from 'commander';
import { z } from 'zod';
import { screenText } from '../../domain/privacy';
import { CliUsageError } from '../cli-error';

const flagsSchema = z.object({ llm: z.string().min(1, '--llm takes a model id').optional() });

function toUsageError(error: CommanderError): never {
  if (error.exitCode === 0) throw error;
  throw new CliUsageError(error.message.replace(/^error: /, ''));
}

/**
 * `agora pii`: one text per line on stdin, one JSON verdict per line on stdout,
 * `{"pii": bool, "kinds": [...]}`, from the deterministic layer (docs/privacy.md). The model layer
 * (`--llm ID`) is not built yet, and says so rather than answering without it.
 */
export function registerPiiCommand(program: Command): void {
  program
    .command('pii')
    .description('personal data in each stdin line, one JSON verdict per line (deterministic layer)')
    .option('--llm <ID>', 'add the model layer with this catalogue model (not available yet)')
    .showHelpAfterError(false)
    .configureOutput({ outputError: () => undefined })
    .exitOverride(toUsageError)
    .action(async (raw: Record<string, unknown>) => {
      const parsed = flagsSchema.safeParse(raw);
      if (!parsed.success) throw new CliUsageError(parsed.error.issues[0]?.message ?? 'invalid flags');
      if (parsed.data.llm !== undefined) {
        throw new CliUsageError('--llm: the model layer of the screening is not available yet; run without --llm for the deterministic layer');
      }
      for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
        const { pii, kinds } = screenText(line);
        process.stdout.write(`${JSON.stringify({ pii, kinds })}\n`);
      }
    });
}
