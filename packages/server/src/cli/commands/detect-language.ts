import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { createLanguageDetector } from '../../services/language';

/**
 * `agora lang`: one text per line on stdin, one language code per line on stdout (ISO 639-1 where
 * one exists, else ISO 639-3; `und` when unsure), in the same order.
 */
export function registerLanguageCommand(program: Command): void {
  program
    .command('lang')
    .description('language of each stdin line: ISO 639-1 (else 639-3), und when unsure')
    .action(async () => {
      const detector = createLanguageDetector();
      for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
        process.stdout.write(`${await detector.detect(line)}\n`);
      }
    });
}
