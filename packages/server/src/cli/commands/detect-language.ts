import { createInterface } from 'node:readline';
import type { Command } from 'commander';

/**
 * `agora lang`: one text per line on stdin, one language code per line on stdout (ISO 639-1 where
 * one exists, else ISO 639-3; `und` when unsure), in the same order.
 */
export function registerLanguageCommand(program: Command): void {
  program
    .command('lang')
    .description('language of each stdin line: ISO 639-1 (else 639-3), und when unsure')
    .action(async () => {
      // Loaded here: its n-gram tables take about 190 MB, which the other commands (`serve`) do not need.
      const { createLanguageDetector } = await import('../../adapters/language-detector');
      const detector = createLanguageDetector();
      for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
        process.stdout.write(`${await detector.detect(line)}\n`);
      }
    });
}
