import { describe, expect, it } from 'vitest';
import { FlatJsonParser } from './flat-json';

const parse = (text: string): unknown => {
  const bytes = new TextEncoder().encode(text);
  return new FlatJsonParser().parse(bytes, 0, bytes.length);
};

describe('FlatJsonParser', () => {
  it.each([
    '{"model_a":"m1","model_b":"m2","winner":"model_a","len_a":120,"len_b":0}',
    ' { "a" : -12 , "b" : 1.5e3 , "c" : true , "d" : false , "e" : null } ',
    '{}',
    '{"x":0,"y":-0,"z":12345678901234567890}',
    '{"name":"Modèle «français» 🚀","n":3}',
    '{"esc":"tab\\tquote\\"","u":"\\u00e9"}',
    '{"nested":{"a":[1,2,{"b":null}]},"list":[1,"two"]}',
    '{"dup":1,"dup":2}',
    '{"f":0.1,"g":1E-7,"h":-3.25}',
  ])('agrees with JSON.parse on %s', (text) => {
    expect(parse(text)).toEqual(JSON.parse(text));
  });

  it.each(['{"a":01}', '{"a":1,}', '{"a" 1}', '{"a":tru}', '{"a":"x"} trailing', '{"a":.5}', '{"a":1.}', "{'a':1}", '{"a":"\u0001"}'])(
    'rejects invalid JSON %s with a SyntaxError',
    (text) => {
      expect(() => parse(text)).toThrow(SyntaxError);
    },
  );

  it('returns non-objects as JSON.parse does (the caller rejects them)', () => {
    expect(parse('[1,2]')).toEqual([1, 2]);
    expect(parse('42')).toBe(42);
  });

  it('interns repeated strings', () => {
    const parser = new FlatJsonParser();
    const bytes = new TextEncoder().encode('{"m":"model-x"}{"m":"model-x"}');
    const first = parser.parse(bytes, 0, 15) as { m: string };
    const second = parser.parse(bytes, 15, 30) as { m: string };
    expect(first.m).toBe('model-x');
    expect(second.m).toBe(first.m);
  });
});
