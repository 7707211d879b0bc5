import type { ColumnType, DatasetFormat } from './export-columns';
import { DATASETS, DATASET_NAMES, type DatasetName } from './export-columns';
import { configEntry, datasetInfo, sizeCategory, yamlString } from './card-yaml';
import { type DatasetTier, isComparIaTable, tierColumns } from './dataset-tiers';
import { caveats, duplicatePrompts, filtering, loading, publicWithholds, tierIntro, trainingUse } from './dataset-card-text';
import type { DatasetCardInput, SubsetConfigs } from './dataset-card-input';

const TYPE_NAMES: Record<ColumnType, string> = {
  string: 'string',
  int: 'int64',
  float: 'float64',
  bool: 'bool',
  timestamp: 'timestamp[ms, UTC]',
  date: 'date32 (day)',
  strings: 'list<string>',
  messages: 'list<struct<role: string, content: string>>',
  transcript:
    'list<struct<role: string, content: string, reasoning_content: string, metadata: struct<generation_id: string, output_tokens: int64, duration: float64>>>',
};

/**
 * The Hugging Face dataset card (README.md) of one tier's folder: YAML header with a default config
 * (the tier's first subset), a config per subset and per subset and language, and their row counts
 * (`dataset_info`, read from the files); then subsets, columns, what the tier leaves out, filtering,
 * training use and caveats. The gated tier's card asks for access (Hugging Face's `extra_gated_*` fields).
 */
export function buildDatasetCard(input: DatasetCardInput, tier: DatasetTier): string {
  const subsets = DATASET_NAMES.filter((dataset) => input.files.some((file) => file.tier === tier && file.dataset === dataset));
  const configs = subsets.map((dataset) => subsetConfigs(input, tier, dataset));
  const entries = configs.flatMap((config) => [
    { name: config.dataset, path: config.path, rows: config.rows },
    ...config.languages.map((language) => ({ name: `${config.dataset}-${language.language}`, path: language.path, rows: language.rows })),
  ]);
  const languages = [...input.languages.entries()].filter(([code]) => code !== 'und').sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  const largest = Math.max(0, ...configs.map((config) => config.rows));
  const header = [
    '---',
    `license: ${input.request.datasetLicense ?? 'other'}`,
    languages.length > 0 ? `language:\n${languages.map(([code]) => `- ${code}`).join('\n')}` : 'language: []',
    'task_categories:\n- text-generation',
    `tags:\n- arena\n- human-feedback\n- preference\n- conversational${tier === 'public' ? '\n- dpo\n- kto' : ''}`,
    `size_categories:\n- ${sizeCategory(largest)}`,
    `pretty_name: ${yamlString(PRETTY_NAME[tier])}`,
    ...(tier === 'gated' ? GATED_ACCESS : []),
    'configs:',
    // The first entry is the tier's first subset over every language: what `load_dataset(folder, split="train")` reads.
    ...entries.map((entry, index) => configEntry(entry.name, entry.path, index === 0)),
    ...datasetInfo(entries),
    '---',
  ];
  return [
    ...header,
    '',
    ...tierIntro(input, tier, PRETTY_NAME[tier]),
    '',
    ...subsetsSection(input, tier, configs),
    '',
    ...columnsSection(tier, configs),
    ...(tier === 'public' ? ['', ...publicWithholds(input.shuffleRows)] : []),
    '',
    ...loading(configs),
    '',
    ...duplicatePrompts(tier, configs),
    '',
    ...filtering(input),
    '',
    ...trainingUse(input),
    '',
    ...caveats(input),
    '',
  ].join('\n');
}

const PRETTY_NAME: Readonly<Record<DatasetTier, string>> = {
  public: 'Agora arena conversations, votes, reactions and preferences (public)',
  gated: 'Agora arena conversations, votes and reactions (gated)',
};

/** What Hugging Face shows before granting access to the gated tier (gating itself is a setting of the repository). */
const GATED_ACCESS = [
  'extra_gated_heading: "Research access to raw arena conversations"',
  `extra_gated_prompt: ${yamlString('These are whole conversations of real visitors, with pseudonymous visitor ids, timestamps and free comments. They were screened for personal data, and screening misses things. Access is granted for research only, under the terms of this card.')}`,
  'extra_gated_fields:',
  '  Name: text',
  '  Affiliation: text',
  '  Research use: text',
  `  ${yamlString('I will use this data for research only and will not redistribute it')}: checkbox`,
  `  ${yamlString('I will not try to identify anyone, and will report any personal data I find to the operator')}: checkbox`,
];

function subsetConfigs(input: DatasetCardInput, tier: DatasetTier, dataset: DatasetName): SubsetConfigs {
  const files = input.files.filter((file) => file.tier === tier && file.dataset === dataset);
  // Hugging Face loads one format per config: Parquet when there is one.
  const format: DatasetFormat = files.some((file) => file.format === 'parquet') ? 'parquet' : 'jsonl';
  const fileName = format === 'parquet' ? 'train-*.parquet' : 'train.jsonl';
  const rowsByLanguage = new Map<string, number>();
  for (const file of files)
    if (file.format === format) rowsByLanguage.set(file.language, (rowsByLanguage.get(file.language) ?? 0) + file.rows);
  const languages = [...rowsByLanguage]
    .filter(([, rows]) => rows > 0)
    .sort((x, y) => (x[0] < y[0] ? -1 : 1))
    .map(([language, rows]) => ({ language, rows, path: `${dataset}/${language}/${fileName}` }));
  return {
    dataset,
    format,
    rows: languages.reduce((sum, language) => sum + language.rows, 0),
    path: `${dataset}/*/${fileName}`,
    languages,
  };
}

function subsetsSection(input: DatasetCardInput, tier: DatasetTier, configs: readonly SubsetConfigs[]): string[] {
  const withJsonl = (config: SubsetConfigs) =>
    config.format === 'parquet' &&
    input.files.some((file) => file.tier === tier && file.dataset === config.dataset && file.format === 'jsonl');
  const content = (dataset: DatasetName) =>
    `${DATASETS[dataset].description}${tier === 'public' && isComparIaTable(dataset) ? ', without what links a row to a person or a moment' : ''}`;
  return [
    '## Subsets',
    '',
    `Each subset is a config (all languages); each subset and main language with rows is a config too, \`<subset>-<language>\` (\`und\`: unknown). The default config is \`${configs[0]?.dataset ?? 'none'}\`.`,
    '',
    '| subset | rows | files | languages | content |',
    '|---|---:|---|---|---|',
    ...configs.map(
      (config) =>
        `| \`${config.dataset}\` | ${config.rows} | ${[config.path, ...(withJsonl(config) ? [`${config.dataset}/*/train.jsonl`] : [])].map((path) => `\`${path}\``).join(', ')} | ${config.languages.map((language) => `${language.language} (${language.rows})`).join(', ') || '—'} | ${content(config.dataset)} |`,
    ),
    '',
    'Row counts are read from the files themselves.',
  ];
}

function columnsSection(tier: DatasetTier, configs: readonly SubsetConfigs[]): string[] {
  const lines = ['## Columns'];
  for (const { dataset } of configs) {
    lines.push('', `### ${dataset}`, '', '| column | type | meaning |', '|---|---|---|');
    for (const column of tierColumns(tier, dataset))
      lines.push(`| \`${column.name}\` | ${TYPE_NAMES[column.type]} | ${column.description} |`);
  }
  return lines;
}
