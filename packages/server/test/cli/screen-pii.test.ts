import { describe, expect, it } from 'vitest';
import { runAgora as run } from '../run-agora';

describe('agora pii', () => {
  it('prints one JSON verdict per input line', async () => {
    const input = [
      'Appelle-moi au 06 12 34 56 78 ou écris à jean.dupont@gmail.com',
      'Victor Hugo a écrit Les Misérables.',
      'Je suis née le 03/04/1990, IBAN FR14 2004 1010 0505 0001 3M02 606',
      '',
    ].join('\r\n');
    const outcome = await run(['pii'], input);
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(
      outcome.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      { pii: true, kinds: ['email', 'phone'] },
      { pii: false, kinds: [] },
      { pii: true, kinds: ['iban', 'birth_date'] },
    ]);
  });
});
