import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const agora = fileURLToPath(new URL('../../../../../bin/agora', import.meta.url));

function run(args: string[], input: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(agora, args, { encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

describe('agora lang', () => {
  it('prints one code per input line, und for lines without language', async () => {
    const input = [
      'Bonjour, je voudrais comprendre comment fonctionne la photosynthèse.',
      'What is the capital of Australia and why was it chosen?',
      '',
      '2024-05-01 42',
      'Wie spät ist es jetzt in Berlin, bitte?',
    ].join('\n');
    const outcome = await run(['lang'], `${input}\n`);
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(outcome.stdout).toBe('fr\nen\nund\nund\nde\n');
  });
});
