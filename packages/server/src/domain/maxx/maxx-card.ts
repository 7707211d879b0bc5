import type { MaxxItemRecord } from '../../db/repositories/maxx.repository';
import { MAXX_SUBSETS, PREF_STRENGTHS } from './maxx-rules';
import { MAXX_COLUMNS } from './maxx-rows';
import { type CalibrationRecord, agreementOf } from './maxx-calibration';

/**
 * The card of the optimised preference set (Hugging Face dataset card: YAML `configs`, then
 * tables). Every figure is computed from the recorded outcomes the files were written from, so the
 * card and the files cannot disagree.
 */
export function buildMaxxCard(
  records: readonly MaxxItemRecord[],
  settings: { roles: Record<string, string>; /** Why there is no item, when there is none. */ emptyBecause?: string | undefined },
): string {
  const kept = records.filter((record) => record.status === 'kept' && record.row !== null);
  const rowsOf = (subset: string) => kept.filter((record) => record.subset === subset).map((record) => record.row!);
  const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)} %`);
  const lines: string[] = [
    '---',
    'configs:',
    ...MAXX_SUBSETS.flatMap((subset) => [
      `- config_name: ${subset}`,
      '  data_files:',
      '  - split: train',
      `    path: ${subset}/train-*.parquet`,
    ]),
    '---',
    '',
    '# Agora optimised preference set',
    '',
    'For real conversations of the arena, an LLM pipeline wrote the best reply it could (draft, cross-review by another model,',
    "revision, a critic's absolute gate), and kept it only when a blind judge, in both orders and with formatting removed from",
    'both sides, preferred it to the original replies. Each row pairs that reply with the weaker reply or replies it beat.',
    '',
    `Models: ${Object.entries(settings.roles)
      .map(([role, id]) => `${role} \`${id}\``)
      .join(', ')}.`,
    '',
  ];
  if (records.length === 0) {
    lines.push(
      `**0 rows.** No eligible item (a voted conversation or a disliked answer that passed personal-data screening): ${
        settings.emptyBecause ?? 'the store had none'
      }.`,
      '',
    );
  }
  lines.push(
    '## Subsets',
    '',
    '| subset | rows | usable pairs (`rejected` set) | rows with `rejected_2` | strong | medium | weak | none |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  const totals = { rows: 0, usable: 0, second: 0, strengths: [0, 0, 0, 0] };
  for (const subset of MAXX_SUBSETS) {
    const rows = rowsOf(subset);
    const usable = rows.filter((row) => row.rejected !== null).length;
    const second = rows.filter((row) => row.rejected_2 !== null).length;
    const strengths = [
      ...PREF_STRENGTHS.map((strength) => rows.filter((row) => row.pref_strength === strength).length),
      rows.filter((row) => row.pref_strength === null).length,
    ];
    lines.push(`| \`${subset}\` | ${rows.length} | ${usable} | ${second} | ${strengths.join(' | ')} |`);
    totals.rows += rows.length;
    totals.usable += usable;
    totals.second += second;
    strengths.forEach((count, index) => (totals.strengths[index]! += count));
  }
  lines.push(`| total | ${totals.rows} | ${totals.usable} | ${totals.second} | ${totals.strengths.join(' | ')} |`, '');

  const languages = new Map<string, number>();
  for (const record of kept) languages.set(record.language, (languages.get(record.language) ?? 0) + 1);
  lines.push('## Languages', '', '| language | rows |', '|---|---:|');
  for (const [language, count] of [...languages].sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0])))
    lines.push(`| ${language} | ${count} |`);
  lines.push('');

  const pairs = records.flatMap((record) => record.stats.pairs);
  const critic = records.reduce(
    (sum, record) => ({ calls: sum.calls + record.stats.critic.calls, passes: sum.passes + record.stats.critic.passes }),
    {
      calls: 0,
      passes: 0,
    },
  );
  lines.push(
    '## How far to trust the pipeline',
    '',
    `- Judge position consistency: ${percent(pairs.filter((pair) => pair.consistent).length, pairs.length)} of ${pairs.length} pairs judged in both orders gave the same verdict.`,
    `- Critic pass rate: ${percent(critic.passes, critic.calls)} of ${critic.calls} candidate replies passed the rubric.`,
    `- Items: ${records.length} processed, ${kept.length} kept.`,
    '',
  );
  lines.push(...calibrationSection(records));
  const dropped = new Map<string, number>();
  for (const record of records)
    if (record.status === 'dropped') dropped.set(record.reason ?? 'dropped', (dropped.get(record.reason ?? 'dropped') ?? 0) + 1);
  if (dropped.size > 0) {
    lines.push('| dropped because | items |', '|---|---:|');
    for (const [reason, count] of [...dropped].sort((left, right) => right[1] - left[1] || left[0].localeCompare(right[0])))
      lines.push(`| ${reason} | ${count} |`);
    lines.push('');
  }
  const byModel = new Map<string, { pairs: number; won: number }>();
  for (const pair of pairs) {
    const entry = byModel.get(pair.model) ?? { pairs: 0, won: 0 };
    entry.pairs += 1;
    if (pair.won) entry.won += 1;
    byModel.set(pair.model, entry);
  }
  if (byModel.size > 0) {
    lines.push(
      '## The optimal reply against each original model (the ones it beats least often first)',
      '',
      '| model | pairs | optimal won |',
      '|---|---:|---:|',
    );
    for (const [model, entry] of [...byModel].sort(
      (left, right) => left[1].won / left[1].pairs - right[1].won / right[1].pairs || left[0].localeCompare(right[0]),
    ))
      lines.push(`| \`${model}\` | ${entry.pairs} | ${percent(entry.won, entry.pairs)} |`);
    lines.push('');
  }
  lines.push(
    '## Rules',
    '',
    '- A pair is won when the judge prefers the optimal reply in both orders; orders that contradict each other are position-inconsistent and count as no win.',
    '- Arena rows are kept only when every original reply is beaten. `rejected` is the original beaten by the smaller margin (the harder one), `rejected_2` the other.',
    '- Arena strength: `strong` when the mean confidence of the win over `rejected` is 4 of 5 or more, else `medium`.',
    "- Reactions rows need the critic to say the visitor's flagged defect is fixed, and a win over the disliked answer; strength: `strong` for a valid complaint, `medium` for a partly valid one, `weak` for a mistaken one.",
    '- Both-bad votes make `arena-both_bad` only; every other vote makes `arena-general`.',
    '',
    '## Columns',
    '',
    '| column | type | meaning |',
    '|---|---|---|',
    ...MAXX_COLUMNS.map((column) => `| \`${column.name}\` | ${column.type} | ${column.description} |`),
    '',
    '## Load it',
    '',
    '```python',
    'from datasets import load_dataset',
    'ds = load_dataset("parquet", data_files={"train": "arena-general/train-*.parquet"}, split="train")',
    'pref = ds.filter(lambda r: r["rejected"] is not None).map(',
    '    lambda r: {"prompt": r["messages"], "chosen": [{"role": "assistant", "content": r["response_optimal"]}],',
    '               "rejected": [{"role": "assistant", "content": r["rejected"]}]}, remove_columns=ds.column_names)',
    '# TRL: DPOTrainer(model, args, train_dataset=pref, ...)',
    '```',
    '',
    'Replies are model-generated and judged by a model: LLM-judge preferences approximate human ones without equalling them.',
    '',
  );
  return lines.join('\n');
}

/**
 * The judge's agreement with the visitors (`--calibrate`), per subset and per language, with its
 * 95 % interval; without calibration, how to get it.
 */
function calibrationSection(records: readonly MaxxItemRecord[]): string[] {
  const calibrated = records.filter((record): record is MaxxItemRecord & { stats: { calibration: CalibrationRecord } } =>
    Boolean(record.stats.calibration),
  );
  const lines = ['## How far to trust the judge', ''];
  if (calibrated.length === 0) {
    lines.push(
      "Not measured for this set: `agora maxx --calibrate` has the judge also compare the two original replies of each item, in both orders, and reports its agreement with the visitors' own preference here.",
      '',
    );
    return lines;
  }
  const share = (value: number | null) => (value === null ? 'n/a' : `${(100 * value).toFixed(1)} %`);
  const table = (title: string, key: (record: MaxxItemRecord) => string) => {
    const groups = new Map<string, CalibrationRecord[]>();
    for (const record of calibrated) groups.set(key(record), [...(groups.get(key(record)) ?? []), record.stats.calibration]);
    lines.push(`| ${title} | pairs | judge agrees | 95 % interval | position-inconsistent |`, '|---|---:|---:|---|---:|');
    for (const [name, group] of [...groups, ['all', calibrated.map((record) => record.stats.calibration)] as const]) {
      const agreement = agreementOf(group);
      lines.push(
        `| ${name} | ${agreement.pairs} | ${share(agreement.rate)} | ${agreement.low === null ? 'n/a' : `${share(agreement.low)} – ${share(agreement.high)}`} | ${agreement.inconsistent} |`,
      );
    }
    lines.push('');
  };
  lines.push(
    "With `--calibrate`, the judge also compared the two original replies of each item in both orders, formatting removed, and its verdict is set against the visitor's: their vote (a both-bad vote prefers neither, so only a tie agrees), or for a disliked answer the other reply of the turn (neither, when both were disliked). A side is the judge's verdict only when both orders choose it; opposite orders are position-inconsistent and count as disagreement; answers that were not the JSON asked for are left out. The interval is Wilson's.",
    '',
  );
  table('subset', (record) => `\`${record.subset}\``);
  table('language', (record) => record.language);
  return lines;
}
