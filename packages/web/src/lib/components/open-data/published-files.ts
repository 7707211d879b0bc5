import type { PublishedFile } from '@agora/contract';

/** One language of a dataset: its rows and its files, one per format (several when Parquet is cut in shards). */
export interface LanguageFiles {
  language: string;
  rows: number;
  bytes: Record<string, number>;
  files: PublishedFile[];
}

/**
 * A dataset's public files grouped by language, languages with the most rows first. Rows are counted
 * in one format (every format holds the same rows).
 */
export function filesByLanguage(files: readonly PublishedFile[], dataset: string): LanguageFiles[] {
  const own = files.filter((file) => file.dataset === dataset);
  const firstFormat = own[0]?.format;
  const groups = new Map<string, LanguageFiles>();
  for (const file of own) {
    const group = groups.get(file.language) ?? { language: file.language, rows: 0, bytes: {}, files: [] };
    groups.set(file.language, group);
    if (file.format === firstFormat) group.rows += file.rows;
    group.bytes[file.format] = (group.bytes[file.format] ?? 0) + file.bytes;
    group.files.push(file);
  }
  return [...groups.values()].sort((a, b) => b.rows - a.rows || (a.language < b.language ? -1 : 1));
}

/** A size in bytes with the unit that keeps it short (B, kB, MB, GB), in the locale. */
export function formatBytes(bytes: number, locale: string): string {
  const units = [
    ['gigabyte', 1e9],
    ['megabyte', 1e6],
    ['kilobyte', 1e3],
  ] as const;
  const [unit, size] = units.find(([, scale]) => bytes >= scale) ?? ['byte', 1];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(bytes / size);
}

/** The columns a preview shows of each dataset: what tells one row from another at a glance. */
export const PREVIEW_COLUMNS: Record<string, readonly string[]> = {
  conversations: ['model_a_name', 'model_b_name', 'opening_msg', 'languages', 'categories'],
  votes: ['model_a_name', 'model_b_name', 'chosen_model_name', 'both_equal', 'both_bad', 'opening_msg'],
  reactions: ['refers_to_model', 'liked', 'disliked', 'question_content', 'response_content'],
  dpo: ['prompt', 'chosen', 'rejected', 'model_chosen', 'model_rejected'],
  kto: ['prompt', 'completion', 'label', 'model'],
  reward: ['chosen', 'rejected'],
  turn_verdicts: ['model_a_name', 'model_b_name', 'verdict', 'question_content'],
  dpo_turns: ['prompt', 'chosen', 'rejected', 'model_chosen', 'context_from'],
};

/** A cell as text: a message list as its last message, a list joined, null as a dash. */
export function cellText(value: unknown, yes: string, no: string): string {
  if (value === null || value === undefined) return '–';
  if (typeof value === 'boolean') return value ? yes : no;
  if (Array.isArray(value)) {
    const last: unknown = value.at(-1);
    if (last && typeof last === 'object' && 'content' in last) return String(last.content);
    return value.map((item) => cellText(item, yes, no)).join(', ');
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}
