import { configEntry, datasetInfo, sizeCategory, yamlString } from '../datasets/card-yaml';
import { calibrationSection, peopleSection } from './maxx-card-trust';
import type { PeopleVerdict } from './maxx-people';
import type { MaxxItemRecord } from './maxx-outcome';
import { MAXX_SUBSETS, PREF_STRENGTHS } from './maxx-rules';
import { MAXX_COLUMNS } from './maxx-rows';
import { maxxRulesSection, maxxUsageSection } from './maxx-card-text';

/**
 * The card of the optimised preference set (a Hugging Face dataset card: YAML header with a default
 * config over every row, a config per subset and per language and their row counts, then tables).
 * Every figure is computed from the recorded outcomes the files were written from, so the card and
 * the files cannot disagree.
 */

/** What a role's calls were sent. */
export interface MaxxCardCallSettings {
  maxOutputTokens: number;
  temperature: number;
  seed: number | null;
}

export interface MaxxCardInput {
  records: readonly MaxxItemRecord[];
  /** Role → model id (the judges joined by commas). */
  roles: Record<string, string>;
  /** Model id → what its calls were sent. */
  callSettings?: Record<string, MaxxCardCallSettings> | undefined;
  /** The operator let a judge be a model that also wrote or reviewed the replies (`--allow-self-judging`). */
  selfJudging?: boolean | undefined;
  /** The licence and training use of each model whose text is in the set. */
  models?: readonly { id: string; license: string; trainingUse: string }[] | undefined;
  /** The set's own licence (default `other`: its rows are other models' outputs under their terms). */
  datasetLicense?: string | undefined;
  /** Why there is no item, when there is none. */
  emptyBecause?: string | undefined;
  /** People's choices on the kept rows (check mode), by the record's item key: only checks of the reply the row keeps. */
  people?: Readonly<Record<string, readonly PeopleVerdict[]>> | undefined;
}

/** Where the files of a subset and language are, relative to the set's folder. */
export const maxxFilesPath = (subset: string, language: string): string => `${subset}/${language}`;

const percent = (part: number, whole: number) => (whole === 0 ? 'n/a' : `${((100 * part) / whole).toFixed(1)} %`);
const byCountThenName = (left: [string, number], right: [string, number]) => right[1] - left[1] || left[0].localeCompare(right[0]);

export function buildMaxxCard(input: MaxxCardInput): string {
  const { records } = input;
  const kept = records.filter((record) => record.status === 'kept' && record.row !== null);
  const languages = new Map<string, number>();
  for (const record of kept) languages.set(record.language, (languages.get(record.language) ?? 0) + 1);
  const subsetRows = MAXX_SUBSETS.map((subset) => ({ subset, rows: kept.filter((record) => record.subset === subset).length }));
  const configs = [
    { name: 'default', path: '*/*/train-*.parquet', rows: kept.length },
    // A config with no file would make `datasets` fail: empty subsets and languages have none.
    ...subsetRows.filter(({ rows }) => rows > 0).map(({ subset, rows }) => ({ name: subset, path: `${subset}/*/train-*.parquet`, rows })),
    ...[...languages]
      .sort(byCountThenName)
      .map(([language, rows]) => ({ name: `lang-${language}`, path: `*/${language}/train-*.parquet`, rows })),
  ];
  const codes = [...languages.keys()].filter((code) => code !== 'und').sort();
  const header = [
    '---',
    `license: ${input.datasetLicense ?? 'other'}`,
    // With `other`, the Hub asks for a name: the rows are model outputs under each model's terms (see Training use).
    ...(input.datasetLicense === undefined ? ['license_name: model-outputs-under-their-models-terms'] : []),
    codes.length > 0 ? `language:\n${codes.map((code) => `- ${code}`).join('\n')}` : 'language: []',
    'task_categories:\n- text-generation',
    'tags:\n- preference\n- dpo\n- sft\n- synthetic\n- arena\n- llm-as-a-judge',
    `size_categories:\n- ${sizeCategory(kept.length)}`,
    `pretty_name: ${yamlString('Agora optimised preference set')}`,
    ...(kept.length > 0 ? ['configs:', ...configs.map((config) => configEntry(config.name, config.path, config.name === 'default'))] : []),
    ...(kept.length > 0 ? datasetInfo(configs) : []),
    '---',
  ];
  const lines: string[] = [
    ...header,
    '',
    '# Agora optimised preference set',
    '',
    'For real conversations of the arena, an LLM pipeline wrote the best reply it could (draft, cross-review by another model,',
    "revision, a critic's absolute gate), and kept it only when a panel of blind judges, in both orders and with formatting removed",
    'from both sides, preferred it to the original replies. Each row pairs that reply with the weaker reply or replies it beat.',
    '',
  ];
  if (records.length === 0 || kept.length === 0) {
    lines.push(
      `**0 rows.** ${records.length === 0 ? `No eligible item (a voted conversation or a disliked answer that passed personal-data screening): ${input.emptyBecause ?? 'the store had none'}.` : 'No item was kept (the reasons are below).'}`,
      '',
    );
  }
  lines.push(...subsetsSection(records), ...languagesSection(languages), ...modelsSection(input), ...panelSection(input));
  lines.push(...lengthSection(records), ...contextSection(records), ...sharedRepliesSection(records), ...calibrationSection(records));
  lines.push(...peopleSection(records, input.people ?? {}));
  lines.push(...dropsSection(records), ...originalModelsSection(records), ...maxxRulesSection(), ...trainingUseSection(input));
  lines.push(
    '## Columns',
    '',
    '| column | type | meaning |',
    '|---|---|---|',
    ...MAXX_COLUMNS.map((column) => `| \`${column.name}\` | ${column.type} | ${column.description} |`),
    '',
    ...maxxUsageSection(configs.map((config) => config.name)),
  );
  return lines.join('\n');
}

function subsetsSection(records: readonly MaxxItemRecord[]): string[] {
  const lines = [
    '## Subsets',
    '',
    '| subset | rows | usable pairs (`rejected` set) | rows with `rejected_2` | strong | medium | weak | none |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const totals = { rows: 0, usable: 0, second: 0, strengths: [0, 0, 0, 0] };
  for (const subset of MAXX_SUBSETS) {
    const rows = keptRows(records, subset);
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
  return lines;
}

const keptRows = (records: readonly MaxxItemRecord[], subset?: string) =>
  records
    .filter((record) => record.status === 'kept' && record.row !== null && (subset === undefined || record.subset === subset))
    .map((record) => record.row!);

function languagesSection(languages: Map<string, number>): string[] {
  return [
    '## Languages',
    '',
    '| language | rows | config |',
    '|---|---:|---|',
    ...[...languages].sort(byCountThenName).map(([language, count]) => `| ${language} | ${count} | \`lang-${language}\` |`),
    '',
  ];
}

/** The models of each role and what their calls were sent. */
function modelsSection(input: MaxxCardInput): string[] {
  const lines = [
    '## Models and call settings',
    '',
    '| role | model | max output tokens | temperature | seed |',
    '|---|---|---:|---:|---:|',
  ];
  for (const [role, ids] of Object.entries(input.roles)) {
    for (const id of ids.split(', ')) {
      const settings = input.callSettings?.[`${role}:${id}`];
      lines.push(
        `| ${role} | \`${id}\` | ${settings?.maxOutputTokens ?? 'n/a'} | ${settings?.temperature ?? 'n/a'} | ${settings?.seed ?? 'not sent'} |`,
      );
    }
  }
  lines.push(
    '',
    'An answer that did not end on a normal stop (cut on its output budget, filtered, a tool call, no finish reason) is never used: it is asked once more with twice the budget, and the item is dropped as `truncated` when it still does not end normally.',
    '',
  );
  return lines;
}

/** The judges, their independence, their consistency and their agreement with each other. */
function panelSection(input: MaxxCardInput): string[] {
  const pairs = input.records.flatMap((record) => record.stats.pairs);
  const panels = input.records.flatMap((record) => record.stats.panels ?? []).filter((panel) => panel.judges.length >= 2);
  const agreeing = panels.filter((panel) => panel.judges.every((outcome) => outcome === panel.judges[0])).length;
  const judges = (input.roles['judge'] ?? '').split(', ').filter((id) => id !== '');
  return [
    '## Judge panel',
    '',
    `- Judges: ${judges.map((id) => `\`${id}\``).join(', ') || 'n/a'} (${judges.length}).`,
    input.selfJudging
      ? '- **Self-judging allowed** (`--allow-self-judging`): a judge also wrote, reviewed or criticised the replies; LLM judges prefer their own writing, so these preferences are weaker evidence.'
      : '- No judge wrote, reviewed or criticised the replies it judges.',
    `- Position consistency: ${percent(pairs.filter((pair) => pair.consistent).length, pairs.length)} of ${pairs.length} judgements in both orders gave the same verdict${
      judges.length > 1
        ? ` (${judges
            .map((id, index) => {
              const own = pairs.filter((pair) => pair.judge === String(index));
              return `\`${id}\` ${percent(own.filter((pair) => pair.consistent).length, own.length)} of ${own.length}`;
            })
            .join(', ')})`
        : ''
    }.`,
    panels.length > 0
      ? `- Inter-judge agreement: ${percent(agreeing, panels.length)} of ${panels.length} pairs got the same outcome (win, no win or inconsistent) from every judge.`
      : '- Inter-judge agreement: not measured (one judge).',
    '',
  ];
}

/** Characters of `response_optimal` over those of `rejected`, per subset: a judge that favours length shows here. */
function lengthSection(records: readonly MaxxItemRecord[]): string[] {
  const lines = [
    '## Length of chosen and rejected',
    '',
    '| subset | pairs | median chosen/rejected length | mean |',
    '|---|---:|---:|---:|',
  ];
  for (const subset of MAXX_SUBSETS) {
    const ratios = keptRows(records, subset)
      .filter((row) => typeof row.rejected === 'string' && row.rejected.length > 0)
      .map((row) => [...String(row.response_optimal)].length / [...String(row.rejected)].length)
      .sort((left, right) => left - right);
    const median =
      ratios.length === 0
        ? null
        : ratios.length % 2
          ? ratios[(ratios.length - 1) / 2]!
          : (ratios[ratios.length / 2 - 1]! + ratios[ratios.length / 2]!) / 2;
    const mean = ratios.length === 0 ? null : ratios.reduce((sum, ratio) => sum + ratio, 0) / ratios.length;
    lines.push(
      `| \`${subset}\` | ${ratios.length} | ${median === null ? 'n/a' : median.toFixed(2)} | ${mean === null ? 'n/a' : mean.toFixed(2)} |`,
    );
  }
  lines.push('');
  return lines;
}

function contextSection(records: readonly MaxxItemRecord[]): string[] {
  const rows = keptRows(records);
  const original = rows.filter((row) => row.context_from === 'original').length;
  return [
    '## Multi-turn rows and their context',
    '',
    `The earlier assistant turns of \`messages\` are the optimal earlier replies. In a multi-turn row, \`rejected\` answered its own earlier replies, not those: ${original} of ${rows.length} rows say \`context_from = "original"\`. The judges read each reply after the conversation it answered, so they also see the pipeline's own earlier replies on the optimal side: on these rows the judging is less blind. For strict DPO, where chosen and rejected must continue the same context, keep the others:`,
    '',
    '```python',
    'strict = ds.filter(lambda r: r["context_from"] == "optimal")',
    '```',
    '',
  ];
}

/** Reactions rows reuse no reply: a fix is written for its defect. */
function sharedRepliesSection(records: readonly MaxxItemRecord[]): string[] {
  const rows = keptRows(records);
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(String(row.response_optimal), (counts.get(String(row.response_optimal)) ?? 0) + 1);
  const shared = rows.filter((row) => (counts.get(String(row.response_optimal)) ?? 0) > 1).length;
  return [
    `Rows whose \`response_optimal\` is the same text as another row's: ${shared} of ${rows.length} (a disliked answer's fix is written with the visitor's complaint in view, so it shares a reply only when the generator wrote the same words).`,
    '',
  ];
}

function dropsSection(records: readonly MaxxItemRecord[]): string[] {
  const critic = records.reduce(
    (sum, record) => ({ calls: sum.calls + record.stats.critic.calls, passes: sum.passes + record.stats.critic.passes }),
    { calls: 0, passes: 0 },
  );
  const incomplete = records.reduce((sum, record) => sum + (record.stats.incompleteAnswers ?? 0), 0);
  const kept = records.filter((record) => record.status === 'kept').length;
  const lines = [
    '## Items kept and dropped',
    '',
    `- Items: ${records.length} processed, ${kept} kept.`,
    `- Critic pass rate: ${percent(critic.passes, critic.calls)} of ${critic.calls} candidate replies passed the rubric.`,
    `- Answers asked again with a larger budget (cut or filtered the first time): ${incomplete}.`,
    '',
  ];
  const dropped = new Map<string, number>();
  for (const record of records)
    if (record.status === 'dropped') dropped.set(record.reason ?? 'dropped', (dropped.get(record.reason ?? 'dropped') ?? 0) + 1);
  if (dropped.size > 0)
    lines.push(
      '| dropped because | items |',
      '|---|---:|',
      ...[...dropped].sort(byCountThenName).map(([reason, count]) => `| ${reason} | ${count} |`),
      '',
    );
  return lines;
}

function originalModelsSection(records: readonly MaxxItemRecord[]): string[] {
  const byModel = new Map<string, { pairs: number; won: number }>();
  for (const pair of records.flatMap((record) => record.stats.pairs)) {
    const entry = byModel.get(pair.model) ?? { pairs: 0, won: 0 };
    entry.pairs += 1;
    if (pair.won) entry.won += 1;
    byModel.set(pair.model, entry);
  }
  if (byModel.size === 0) return [];
  return [
    '## The optimal reply against each original model (the ones it beats least often first)',
    '',
    '| model | judgements | optimal won |',
    '|---|---:|---:|',
    ...[...byModel]
      .sort((left, right) => left[1].won / left[1].pairs - right[1].won / right[1].pairs || left[0].localeCompare(right[0]))
      .map(([model, entry]) => `| \`${model}\` | ${entry.pairs} | ${percent(entry.won, entry.pairs)} |`),
    '',
  ];
}

function trainingUseSection(input: MaxxCardInput): string[] {
  const rows = keptRows(input.records);
  const uses = new Map<string, number>();
  for (const row of rows) uses.set(String(row.training_use), (uses.get(String(row.training_use)) ?? 0) + 1);
  // The models whose text is in the set: the role models and the originals that were judged.
  const ids = new Set([
    ...Object.values(input.roles).flatMap((id) => id.split(', ')),
    ...input.records.flatMap((record) => record.stats.pairs.map((pair) => pair.model)),
  ]);
  const used = (input.models ?? []).filter((model) => ids.has(model.id));
  return [
    '## Training use',
    '',
    "Every reply is a model's output, under that model's terms. A row's `training_use` is the most restrictive of the models that wrote its replies (the generator and stylist, and the original models of `rejected` and `rejected_2`): `allowed` (an open licence that puts no condition on training), `check_licence` (read the licence first) or `evaluation_only` (a proprietary model whose terms forbid training competing models on its outputs). Filter on it before training.",
    '',
    "The conversations come from this arena's open datasets, under their licence (this arena's `agora export` card), and, for rows whose id is a compar:IA source id, from compar:IA's published datasets under theirs: a user of the set keeps both.",
    '',
    '| training use | rows |',
    '|---|---:|',
    ...[...uses].sort(byCountThenName).map(([use, count]) => `| \`${use}\` | ${count} |`),
    '',
    ...(used.length > 0
      ? [
          '| model | licence | training use |',
          '|---|---|---|',
          ...used.map((model) => `| \`${model.id}\` | ${model.license} | \`${model.trainingUse}\` |`),
          '',
        ]
      : []),
  ];
}
