import { describe, expect, it } from 'vitest';
import { runAgora as run } from '../run-agora';

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
