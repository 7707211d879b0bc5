import { describe, expect, it } from 'vitest';
import { hashBytes } from './byte-name-table';
import { readUsualLine, VoteFields } from './usual-vote-line';

const STYLE = '"len_a":10,"len_b":5,"headers_a":1,"headers_b":0,"lists_a":0,"lists_b":2,"bold_a":0,"bold_b":70000';

/** Runs the usual-line reader on `text` (the whole buffer); the fields and where the next line starts. */
function read(text: string): { next: number; fields: VoteFields; bytes: Buffer; view: DataView } {
  const bytes = Buffer.from(text, 'utf8');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const fields = new VoteFields();
  return { next: readUsualLine(view, bytes, 0, bytes.length, fields), fields, bytes, view };
}

const nameOf = (bytes: Buffer, fields: VoteFields, slot: number): string => bytes.toString('utf8', fields.start[slot], fields.end[slot]);

describe('the usual-line reader', () => {
  it('reads names of every length and byte (word tails, UTF-8, punctuation) with the general hash', () => {
    const names = [
      'a',
      'ab',
      'abc',
      'abcd',
      'abcde',
      'abcdefgh',
      'abcdefghi',
      'modèle-é',
      'émoji-🦊',
      'a!#b][~',
      'x'.repeat(301),
      'vendor0/model-017-instruct',
    ];
    for (const name of names) {
      const line = `{"model_a":"${name}","model_b":"other","winner":"model_b"}\n`;
      const { next, fields, bytes, view } = read(line);
      expect(next, name).toBe(bytes.length);
      expect(nameOf(bytes, fields, 0)).toBe(name);
      expect(nameOf(bytes, fields, 1)).toBe('other');
      expect(fields.hashes[0]).toBe(hashBytes(view, bytes, fields.start[0]!, fields.end[0]!));
      expect(fields.hashes[1]).toBe(hashBytes(view, bytes, fields.start[1]!, fields.end[1]!));
      expect(fields.outcome).toBe(1);
      expect(fields.withStyle).toBe(false);
    }
  });

  it('reads each winner spelling it knows and the eight counts in VoteTable order', () => {
    const winners: [string, number][] = [
      ['model_a', 0],
      ['model_b', 1],
      ['tie', 2],
      ['both_bad', 3],
      ['tie_bothbad', 3],
    ];
    for (const [winner, code] of winners) {
      const { next, fields, bytes } = read(`{"model_a":"x","model_b":"y","winner":"${winner}",${STYLE}}\n{"model_a"`);
      expect(next, winner).toBe(bytes.indexOf('\n') + 1);
      expect(fields.outcome).toBe(code);
      expect(fields.withStyle).toBe(true);
      expect([...fields.style]).toEqual([10, 5, 1, 0, 0, 2, 0, 70000]);
    }
    // the last line of a file may end without a newline
    expect(read(`{"model_a":"x","model_b":"y","winner":"tie"}`).next).toBe(45);
  });

  it('leaves every other line to the general reader, having read nothing past the range', () => {
    const others = [
      `{"model_b":"y","model_a":"x","winner":"tie"}`,
      `{"model_a":"x","winner":"tie","model_b":"y"}`,
      `{"model_a": "x","model_b":"y","winner":"tie"}`,
      ` {"model_a":"x","model_b":"y","winner":"tie"}`,
      `{"model_a":"x","model_b":"y","winner":"tie"} `,
      `{"model_a":"x","model_b":"y","winner":"tie"}\r`,
      `{"model_a":"mistral\\/large","model_b":"y","winner":"tie"}`,
      `{"model_a":"mod\\u00e8le","model_b":"y","winner":"tie"}`,
      `{"model_a":"x\ty","model_b":"y","winner":"tie"}`,
      `{"model_a":"","model_b":"y","winner":"tie"}`,
      `{"model_a":"x","model_b":"y","winner":"tie (bothbad)"}`,
      `{"model_a":"x","model_b":"y","winner":"model_c"}`,
      `{"model_a":"x","model_b":"y","winner":"ti\\u0065"}`,
      `{"model_a":"x","model_b":"y"}`,
      `{"model_a":"x","model_b":"y","winner":"tie","flags":[]}`,
      `{"model_a":"x","model_b":"y","winner":"tie","len_a":1}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${STYLE.replace(',"bold_b":70000', '')}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${STYLE.replace('"len_a":10', '"len_a":01')}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${STYLE.replace('"len_a":10', '"len_a":-1')}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${STYLE.replace('"len_a":10', '"len_a":1.5')}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${STYLE.replace('"len_a":10', '"len_a":1e3')}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${STYLE.replace('"len_a":10', '"len_a":4294967296')}}`,
      `{"model_a":"x","model_b":"y","winner":"tie",${STYLE.replace('"len_a":10,"len_b":5', '"len_b":5,"len_a":10')}}`,
    ];
    for (const line of others) expect(read(`${line}\n`).next, line).toBe(-1);
    // a line cut by the end of the range is not read from the bytes past it
    const whole = `{"model_a":"x","model_b":"y","winner":"model_a",${STYLE}}\n`;
    const bytes = Buffer.from(whole);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let to = 0; to < bytes.length - 2; to++) expect(readUsualLine(view, bytes, 0, to, new VoteFields()), `to ${to}`).toBe(-1);
  });
});
