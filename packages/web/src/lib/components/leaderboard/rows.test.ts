import type { LeaderboardRow } from '@agora/contract';
import { describe, expect, it } from 'vitest';
import { leaderboardCsv, leaderboardCsvName } from './csv';
import { type Row, joinRows, nextSort, searchRows, sortRows } from './rows';

const row = (model: string, rank: number | null, fields: Partial<LeaderboardRow> = {}) =>
  ({ model, name: model.toUpperCase(), rank, organisation: null, wh_per_1000_tokens: null, ...fields }) as unknown as LeaderboardRow;

const rows: Row[] = joinRows([
  row('zeta', 1, { organisation: 'Acme', wh_per_1000_tokens: { min: 1, max: 3 } }),
  row('alpha', 2),
  row('mid', null, { wh_per_1000_tokens: { min: 0.5, max: 0.5 } }),
]);

describe('leaderboard rows', () => {
  it('searches the name, the id and the organisation, case-insensitively', () => {
    expect(searchRows(rows, '  ').map((r) => r.model)).toEqual(['zeta', 'alpha', 'mid']);
    expect(searchRows(rows, 'acme').map((r) => r.model)).toEqual(['zeta']);
    expect(searchRows(rows, 'ALP').map((r) => r.model)).toEqual(['alpha']);
  });

  it('sorts by a column, empty cells last either way, ties in rank order', () => {
    expect(sortRows(rows, { key: 'name', ascending: true }).map((r) => r.model)).toEqual(['alpha', 'mid', 'zeta']);
    expect(sortRows(rows, { key: 'energy', ascending: true }).map((r) => r.model)).toEqual(['mid', 'zeta', 'alpha']);
    expect(sortRows(rows, { key: 'energy', ascending: false }).map((r) => r.model)).toEqual(['zeta', 'mid', 'alpha']);
    expect(sortRows(rows, { key: 'rank', ascending: false }).map((r) => r.model)).toEqual(['alpha', 'zeta', 'mid']);
  });

  it('turns the order over on the same column; another column starts in its natural order', () => {
    expect(nextSort({ key: 'rank', ascending: true }, 'rank')).toEqual({ key: 'rank', ascending: false });
    expect(nextSort({ key: 'rank', ascending: true }, 'rating')).toEqual({ key: 'rating', ascending: false });
    expect(nextSort({ key: 'rating', ascending: false }, 'energy')).toEqual({ key: 'energy', ascending: true });
  });

  it('writes the CSV with the energy range as two columns, and names the file after the view', () => {
    const [header, first] = leaderboardCsv(rows.slice(0, 1)).split('\r\n');
    const cells = Object.fromEntries(header!.split(',').map((name, index) => [name, first!.split(',')[index]]));
    expect(cells).toMatchObject({
      model: 'zeta',
      rank: '1',
      wh_per_1000_tokens_min: '1',
      wh_per_1000_tokens_max: '3',
      organisation: 'Acme',
      tier: '',
    });
    expect(leaderboardCsvName({ style: 'plain', language: '', category: '', mode: '' })).toBe('agora-leaderboard-plain.csv');
    expect(leaderboardCsvName({ style: 'controlled', language: 'fr', category: 'code', mode: 'custom' })).toBe(
      'agora-leaderboard-controlled-fr-code-custom.csv',
    );
  });
});
