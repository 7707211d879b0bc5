import { describe, expect, it } from 'vitest';
import { LinePattern } from './line-pattern';
import { FORMAT_COLUMNS, FORMAT_SHAPES } from './vote-formats';

const first = { model_a: 'x', model_b: 'y', winner: 'tie', len_a: 3, len_b: 4, headers_a: 0, headers_b: 0, lists_a: 0, lists_b: 0, bold_a: 0, bold_b: 0 };
const pattern = LinePattern.of(first, FORMAT_COLUMNS.agora)!;
const project = (record: Record<string, unknown>) => FORMAT_SHAPES.agora((index) => record[FORMAT_COLUMNS.agora[index]!]);

describe('LinePattern', () => {
  it.each([
    JSON.stringify(first),
    '{"model_a": "Modèle é", "model_b": "b", "winner": "model_b", "len_a": 1e2, "len_b": -0, "headers_a": 1.5, "headers_b": null, "lists_a": true, "lists_b": false, "bold_a": 0, "bold_b": 12345678901234567890}',
    '  {"model_a":"a","model_b":"b","winner":"both_bad","len_a":0,"len_b":0,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}  ',
  ])('reads a line of the same layout exactly as JSON.parse: %s', (line) => {
    expect(pattern.match(line, FORMAT_SHAPES.agora)).toEqual(project(JSON.parse(line)));
  });

  it.each([
    '{"model_a":"a\\"b","model_b":"b","winner":"tie","len_a":0,"len_b":0,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}',
    '{"model_b":"b","model_a":"a","winner":"tie","len_a":0,"len_b":0,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}',
    '{"model_a":"a","model_b":"b","winner":"tie","len_a":0,"len_b":0,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0,"flags":["abuse"]}',
    '{"model_a":"a","model_b":"b","winner":"tie","len_a":01,"len_b":0,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}',
    '{"model_a":"a","model_b":"b","winner":"tie","len_a":0,"len_b":0,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0,}',
    '{"model_a":"a","model_b":"b","winner":"tie","len_a":{},"len_b":0,"headers_a":0,"headers_b":0,"lists_a":0,"lists_b":0,"bold_a":0,"bold_b":0}',
  ])('leaves any other line to JSON.parse: %s', (line) => {
    expect(pattern.match(line, FORMAT_SHAPES.agora)).toBeUndefined();
  });

  it('has no pattern for rows with nested values', () => {
    expect(LinePattern.of({ model_a: 'x', conv_metadata: {} }, FORMAT_COLUMNS.fastchat)).toBeUndefined();
  });
});
