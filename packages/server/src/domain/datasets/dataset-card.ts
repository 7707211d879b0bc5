import type { ExclusionCounts } from '../../db/repositories/dataset.repository';
import type { ColumnType } from './export-columns';
import { DATASETS, DATASET_TIER, type DatasetName, type DatasetTier } from './export-columns';
import type { DatasetFormat } from '../../adapters/dataset-files/dataset-writers';
import type { ExportFilters } from './export-filters';
import { configEntry, sizeCategory, yamlString } from './card-yaml';
import type { TrainingUse } from './training-use';

export interface DatasetCardInput {
  /** Every file of the export, both tiers (paths absolute or relative to the process, under `outDir`). */
  files: readonly { dataset: DatasetName; language: string; format: DatasetFormat; path: string; rows: number }[];
  outDir: string;
  exclusions: ExclusionCounts;
  /** Main language of each exported conversation → count. */
  languages: ReadonlyMap<string, number>;
  /** Model layer of the screening of each exported arena conversation → count. */
  modelLayer: ReadonlyMap<string, number>;
  /** `arena` or the imported dataset of each exported conversation → count. */
  sources: ReadonlyMap<string, number>;
  request: ExportFilters;
  /** The optimised preference set written into `optimised/` beside the public tier, by subset. */
  optimisedRows?: Readonly<Record<string, number>> | undefined;
  privateCohortCount: number;
  exportedAt: string;
  /** The catalogue's models with their licence and what their answers may be used for. */
  models: readonly { id: string; license: string; openWeights: boolean; trainingUse: TrainingUse }[];
}

const TYPE_NAMES: Record<ColumnType, string> = {
  string: 'string',
  int: 'int64',
  float: 'float64',
  bool: 'bool',
  timestamp: 'timestamp[ms, UTC]',
  strings: 'list<string>',
  messages: 'list<struct<role: string, content: string>>',
  transcript:
    'list<struct<role: string, content: string, reasoning_content: string, metadata: struct<generation_id: string, output_tokens: int64, duration: float64>>>',
};

/** A subset's file sets: all languages, then one per language that has rows. */
interface SubsetConfigs {
  dataset: DatasetName;
  format: DatasetFormat;
  rows: number;
  /** Glob of every language's files, relative to the tier's folder. */
  path: string;
  languages: { language: string; rows: number; path: string }[];
}

/**
 * The Hugging Face dataset card (README.md) of one tier: YAML header with a config per subset and
 * per subset and language, then subsets with row counts, columns, filtering and caveats. The raw
 * tier's card asks for gated access (Hugging Face's `extra_gated_*` fields).
 */
export function buildDatasetCard(input: DatasetCardInput, tier: DatasetTier): string {
  const subsets = [...new Set(input.files.map((file) => file.dataset))].filter((dataset) => DATASET_TIER[dataset] === tier);
  const configs = subsets.map((dataset) => subsetConfigs(input, dataset));
  const languages = [...input.languages.entries()].filter(([code]) => code !== 'und').sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
  const largest = Math.max(0, ...configs.map((config) => config.rows));
  const header = [
    '---',
    `license: ${input.request.datasetLicense ?? 'other'}`,
    languages.length > 0 ? `language:\n${languages.map(([code]) => `- ${code}`).join('\n')}` : 'language: []',
    'task_categories:\n- text-generation',
    `tags:\n- arena\n- human-feedback\n- preference\n${tier === 'raw' ? '- conversational' : '- dpo\n- kto'}`,
    `size_categories:\n- ${sizeCategory(largest)}`,
    `pretty_name: ${tier === 'raw' ? 'Agora arena conversations, votes and reactions (raw, gated)' : 'Agora arena preferences'}`,
    ...(tier === 'raw' ? GATED_ACCESS : []),
    'configs:',
    ...configs.flatMap((config) => [
      configEntry(config.dataset, config.path),
      ...config.languages.map((language) => configEntry(`${config.dataset}-${language.language}`, language.path)),
    ]),
    '---',
  ];
  return [...header, '', ...body(input, tier, configs), ''].join('\n');
}

/** What Hugging Face shows before granting access to the raw tier (gating itself is a setting of the repository). */
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

function subsetConfigs(input: DatasetCardInput, dataset: DatasetName): SubsetConfigs {
  const files = input.files.filter((file) => file.dataset === dataset);
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

function body(input: DatasetCardInput, tier: DatasetTier, configs: readonly SubsetConfigs[]): string[] {
  const otherTier = tier === 'raw' ? 'public' : 'raw';
  const hasOtherTier = input.files.some((file) => DATASET_TIER[file.dataset] === otherTier);
  const lines = [
    tier === 'raw' ? '# Agora arena conversations, votes and reactions (raw tier)' : '# Agora arena preferences (public tier)',
    '',
    `Exported from an Agora arena on ${input.exportedAt}. Conversations are real visitors' prompts answered by two anonymous models side by side; votes and reactions are what the visitors said of the answers.`,
    '',
    ...(tier === 'raw'
      ? [
          "This is the **raw tier**: compar:IA's three tables, with column names that follow compar:IA's public datasets (Agora adds columns, never renames). Rows keep whole conversations with each answer's reasoning and metadata, pseudonymous visitor ids that group one visitor's rows, timestamps and free comments, so **access is gated**: for research only, under these terms — no redistribution, no attempt to identify anyone, and any personal data found reported to the operator. The operator turns on access requests in the repository's settings.",
          ...(hasOtherTier
            ? ['', 'The public tier (the training subsets, without visitor ids, timestamps or comments) is the folder above this one.']
            : []),
        ]
      : [
          'This is the **public tier**: training subsets for TRL, one row per turn, with no visitor id, timestamp or comment.',
          ...(hasOtherTier
            ? [
                '',
                "The raw tier (compar:IA's conversations, votes and reactions) is in `raw/`, with its own card: publish it as a separate, gated dataset.",
              ]
            : []),
          ...(input.optimisedRows
            ? [
                '',
                `The optimised preference set (${Object.entries(input.optimisedRows)
                  .map(([subset, rows]) => `${subset} ${rows} rows`)
                  .join(
                    ', ',
                  )}) is in \`optimised/\`, with its own card: a better reply written for real conversations of this arena, kept only when blind judges preferred it. Publish it as a dataset of its own.`,
              ]
            : []),
        ]),
    '',
    '## Subsets',
    '',
    'Each subset is a config (all languages); each subset and main language with rows is a config too, `<subset>-<language>` (`und`: unknown).',
    '',
    '| subset | rows | files | languages | content |',
    '|---|---:|---|---|---|',
    ...configs.map(
      (config) =>
        `| \`${config.dataset}\` | ${config.rows} | ${[config.path, ...(config.format === 'parquet' && input.files.some((file) => file.dataset === config.dataset && file.format === 'jsonl') ? [`${config.dataset}/*/train.jsonl`] : [])].map((path) => `\`${path}\``).join(', ')} | ${config.languages.map((language) => `${language.language} (${language.rows})`).join(', ') || '—'} | ${DATASETS[config.dataset].description} |`,
    ),
    '',
    'Row counts are read from the files themselves.',
    '',
    '## Columns',
  ];
  for (const { dataset } of configs) {
    lines.push('', `### ${dataset}`, '', '| column | type | meaning |', '|---|---|---|');
    for (const column of DATASETS[dataset].columns)
      lines.push(`| \`${column.name}\` | ${TYPE_NAMES[column.type]} | ${column.description} |`);
  }
  return [...lines, '', ...filtering(input), '', ...trainingUse(input), '', ...caveats(input)];
}

function filtering(input: DatasetCardInput): string[] {
  const { exclusions, request } = input;
  const filters = [
    request.languages?.length ? `main language in ${request.languages.join(', ')}` : undefined,
    request.categories?.length ? `topic in ${request.categories.join(', ')}` : undefined,
    request.from ? `started on or after ${request.from}` : undefined,
    request.until ? `started before ${request.until}` : undefined,
    request.licenses?.length ? `models licensed ${request.licenses.join(', ')}` : undefined,
    request.excludeLicenses?.length ? `no model licensed ${request.excludeLicenses.join(', ')}` : undefined,
    request.openWeightsOnly ? 'open-weights models only' : undefined,
    request.minPrefStrength && request.minPrefStrength !== 'weak'
      ? `dpo/reward pairs of preference strength ${request.minPrefStrength} or more`
      : undefined,
  ].filter((filter) => filter !== undefined);
  return [
    '## How the data was filtered',
    '',
    'Privacy rules, applied to every subset (a conversation left out takes its votes and reactions with it; nothing is redacted):',
    '',
    '- only conversations whose screening (language, topics, personal data) finished are published; never-screened and failed ones are not;',
    '- a conversation where the screening or a reviewer found personal data is left out whole;',
    "- a conversation a visitor reported is left out until a reviewer includes it; a reviewer's decision overrides the screening both ways;",
    '- cohorts the operator marked private are left out;',
    '- only turns that completed on both sides and were screened are published (a failed turn is never published one-sided);',
    '- visitor ids are salted hashes (the salt is a secret of the deployment): no IP, cookie or raw visitor id is published.',
    '',
    `Of ${exclusions.conversations} conversations in the store: ${exclusions.notScreened} not screened yet, ${exclusions.screeningFailed} whose screening failed, ${exclusions.flagged} flagged as containing personal data, ${exclusions.reportedNotReviewed} reported and not reviewed, ${exclusions.reviewerExcluded} excluded by a reviewer, ${exclusions.privateCohort} in private cohorts (${input.privateCohortCount} configured); ${exclusions.reviewerIncluded} flagged or reported ones were included by a reviewer.`,
    '',
    filters.length > 0 ? `Filters of this export: ${filters.join('; ')}.` : 'No further filter was applied.',
  ];
}

/** What each model's answers may be used for: the card's statement beside the `training_use` columns. */
function trainingUse(input: DatasetCardInput): string[] {
  return [
    '## Training use',
    '',
    "Every answer is someone's model output, under that model's terms. Answers of proprietary models may be used to evaluate models, **not to train them** (their vendors' terms forbid training competing models on their outputs): their rows say `evaluation_only`. Answers of open-weights models under a licence that allows it say `allowed`; other open licences (community licences, use policies) say `check_licence`: read the licence before training. `dpo` and `reward` pairs take the most restrictive use of their two answers. Filter on the `training_use` columns before training.",
    '',
    '| model | licence | weights | training use |',
    '|---|---|---|---|',
    ...[...input.models]
      .sort((left, right) => (left.id < right.id ? -1 : 1))
      .map((model) => `| \`${model.id}\` | ${model.license} | ${model.openWeights ? 'open' : 'closed'} | \`${model.trainingUse}\` |`),
  ];
}

function caveats(input: DatasetCardInput): string[] {
  const layer = (status: string) => input.modelLayer.get(status) ?? 0;
  const total = [...input.modelLayer.values()].reduce((sum, value) => sum + value, 0);
  const imported = [...input.sources.entries()].filter(([source]) => source !== 'arena');
  return [
    '## Caveats',
    '',
    ...(imported.length > 0
      ? [
          `- Imported conversations (${imported.map(([source, count]) => `${count} from \`${source}\``).join(', ')}) were screened by their publisher before publication, not by this arena's pipeline; the figures below are about the ${total} arena conversations.`,
        ]
      : []),
    `- Screening layers: the deterministic personal-data detectors and language identification ran on all ${total} published arena conversations; the model layer (topics, summary and a model's personal-data check) ran on ${layer('done')}, was not configured for ${layer('not_configured')}, failed for ${layer('failed')} and was still pending for ${layer('pending')}. Where it did not run, \`categories\`, \`keywords\` and \`short_summary\` are empty and personal data was looked for by the detectors only. Detectors miss things: report a problem to the operator.`,
    "- Votes judge a whole conversation. In `dpo` and `reward`, a first turn is an exact pair (`context_from = shared`); later turns use the chosen side's history as context (`context_from = chosen`), because the two histories differ after the first answer. Ties and both-bad votes make no pair; both-bad answers are `kto` negatives.",
    '- `pref_strength` comes from the tags the visitor chose, not from a model; most votes carry no tag and are `weak`.',
    "- Energy columns are estimates (EcoLogits) from output tokens and the model's parameter count; they are null for models of unknown size.",
    "- System prompts of arena conversations are the catalogue's at export time.",
    '- Imported rows (`source` other than `arena`) keep the values their source published for the columns Agora does not model.',
    '- Visitors choose what to ask: topics, languages and models are not balanced samples of anything.',
  ];
}
