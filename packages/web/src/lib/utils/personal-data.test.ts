import { describe, expect, it } from 'vitest';
import { checkPersonalData, excerpt } from './personal-data';

describe('the warning before sending', () => {
  it('names a French phone number and a NIR, where they stand', async () => {
    const text = 'Rappelle ma mère au 06 12 34 56 78, son numéro de sécu est 2 85 05 78 006 084 12.';
    const check = await checkPersonalData(text);
    expect(check.kinds).toEqual(['phone', 'identity_number']);
    expect(check.findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(['06 12 34 56 78', '2 85 05 78 006 084 12']);
  });

  it('sees through the disguises the server sees through', async () => {
    expect((await checkPersonalData('écris à paul＠orange.fr ou paul&#64;free.fr')).kinds).toEqual(['email']);
    expect((await checkPersonalData('IBAN FR76 3000 6000 0112 3456 7890 189')).kinds).toEqual(['bank_account']);
  });

  it('does not warn about an address or a plain question', async () => {
    expect((await checkPersonalData('Écris une lettre pour le 12 rue des Lilas, 75011 Paris.')).kinds).toEqual([]);
    expect((await checkPersonalData('Quelle est la capitale de l’Australie ?')).kinds).toEqual([]);
  });

  it('shows each finding with a little text around it, cut with an ellipsis', () => {
    const text = `${'a'.repeat(40)} 06 12 34 56 78 ${'b'.repeat(40)}`;
    const pieces = excerpt(text, [{ kind: 'phone', start: 41, end: 55 }], 5);
    expect(pieces).toEqual([
      { text: '… ', marked: false },
      { text: 'aaaa ', marked: false },
      { text: '06 12 34 56 78', marked: true },
      { text: ' bbbb', marked: false },
      { text: ' …', marked: false },
    ]);
  });
});
