import { describe, expect, it } from 'vitest';
import { DenseIds64, hash64 } from './dense-ids';

describe('64-bit string hashes and their dense numbers', () => {
  it('hash as cyrb53 does, with all 64 bits', () => {
    // cyrb53("") = 3338908027751811, its published value: its 53 bits are the low 21 of our high half and our low half.
    const [hi, lo] = hash64('');
    expect((hi & 0x1fffff) * 2 ** 32 + lo).toBe(3338908027751811);
    expect([hi, lo]).toEqual([1217125560, 451841411]);
    expect(hash64('duel-1')).toEqual(hash64('duel-1'));
    expect(hash64('duel-1')).not.toEqual(hash64('duel-2'));
  });

  it('number a million ids densely, in order of first sight, with no collision, across table growths', () => {
    const ids = new DenseIds64();
    let misnumbered = 0;
    for (let index = 0; index < 1_000_000; index++) if (ids.idOf(...hash64(`AAAA${index.toString(36)}-duel`)) !== index) misnumbered++;
    expect(misnumbered).toBe(0);
    expect(ids.size).toBe(1_000_000);
    // Seen again: the same number, no new one.
    for (let index = 0; index < 1_000_000; index += 997) expect(ids.idOf(...hash64(`AAAA${index.toString(36)}-duel`))).toBe(index);
    expect(ids.size).toBe(1_000_000);
    expect(ids.find(...hash64('never seen'))).toBe(-1);
  });

  it('restore a table in one pass: the same numbers, new keys after them, a repeated key refused', () => {
    const original = new DenseIds64();
    for (let index = 0; index < 200_000; index++) original.idOf(...hash64(`duel-${index}`));
    const restored = new DenseIds64();
    const started = performance.now();
    restored.restore(original.keyHalves());
    const restoreMs = performance.now() - started;
    expect(restored.size).toBe(200_000);
    for (let index = 0; index < 200_000; index += 7) expect(restored.find(...hash64(`duel-${index}`))).toBe(index);
    expect(restored.find(...hash64('never seen'))).toBe(-1);
    expect(restored.idOf(...hash64('duel-new'))).toBe(200_000);
    expect(restored.keyHalves()).toEqual(Uint32Array.from([...original.keyHalves(), ...hash64('duel-new')]));
    const repeated = Uint32Array.from([...original.keyHalves().subarray(0, 20), ...original.keyHalves().subarray(6, 8)]);
    const refused = new DenseIds64();
    expect(() => refused.restore(repeated)).toThrow('a key appears twice');
    expect(refused.size).toBe(0);
    process.stdout.write(`dense ids: 200,000 keys restored in ${restoreMs.toFixed(1)} ms\n`);
  });
});
