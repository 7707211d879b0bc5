import { toCsv } from '../../utils/format';
import type { Row } from './rows';

/** The CSV's columns: the row's figures, the energy range as two columns. */
const HEADER = [
  'rank',
  'rank_best',
  'rank_worst',
  'tier',
  'model',
  'name',
  'rating',
  'ci_low',
  'ci_high',
  'n_battles',
  'wins',
  'losses',
  'ties',
  'both_bad',
  'win_rate',
  'both_bad_rate',
  'wh_per_1000_tokens_min',
  'wh_per_1000_tokens_max',
  'params_b',
  'arch',
  'organisation',
  'license',
  'open_weights',
  'provisional',
] as const;

/** The rows as shown (filtered, sorted) as a CSV file's text. */
export function leaderboardCsv(rows: readonly Row[]): string {
  const body = rows.map((row) =>
    HEADER.map((key) =>
      key === 'wh_per_1000_tokens_min'
        ? row.wh_per_1000_tokens?.min
        : key === 'wh_per_1000_tokens_max'
          ? row.wh_per_1000_tokens?.max
          : row[key as Exclude<keyof Row, 'wh_per_1000_tokens' | 'mean_energy_wh_per_duel'>],
    ),
  );
  return toCsv(HEADER, body);
}

/** The file's name says which view it holds: `agora-leaderboard-plain-fr-code-custom.csv`. */
export function leaderboardCsvName(view: { style: string; language: string; category: string; mode: string }): string {
  const { style, language, category, mode } = view;
  return `agora-leaderboard-${style}${language ? `-${language}` : ''}${category ? `-${category}` : ''}${mode ? `-${mode}` : ''}.csv`;
}

/** Hands the text to the browser as a download. */
export function downloadCsv(name: string, text: string): void {
  const blob = new Blob([text], { type: 'text/csv;charset=utf-8' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}
