import type { DatasetCardInput, SubsetConfigs } from './dataset-card-input';
import type { DatasetFormat } from './export-columns';
import { BANDS, BAND_ROWS, PROMPT_CLUSTER_THRESHOLD, SHINGLE_LENGTH, SIGNATURE_LENGTH } from '../prompts/prompt-clusters';
import { PROMPT_CLUSTER_CAP } from '../ranking/prompt-cluster-cap';
import { type DatasetTier, PUBLIC_WITHHELD_COLUMNS } from './dataset-tiers';

/** The prose of an export's cards: what each tier is, what the public one leaves out, how the data was filtered. */

export function tierIntro(input: DatasetCardInput, tier: DatasetTier, title: string): string[] {
  const otherTier: DatasetTier = tier === 'public' ? 'gated' : 'public';
  const hasOtherTier = input.files.some((file) => file.tier === otherTier);
  const lines = [
    `# ${title}`,
    '',
    // The day only: no time finer than a day in any file of the public tier, the cards included.
    `Exported from an Agora arena on ${input.exportedAt.slice(0, 10)} (UTC). Conversations are real visitors' prompts answered by two anonymous models side by side; votes and reactions are what the visitors said of the answers.`,
    '',
  ];
  if (tier === 'public') {
    lines.push(
      "This is the **public** dataset. It holds compar:IA's three tables, `conversations`, `votes` and `reactions`, in the columns of compar:IA's public datasets but without what links a row to a person or a moment ([below](#what-this-dataset-leaves-out)), and three training subsets for TRL, `dpo`, `kto` and `reward`, one row per turn. The subsets join on `conversation_pair_id` (`source_id` in the training subsets).",
      ...(hasOtherTier
        ? [
            '',
            'The **gated** dataset (the same conversations, votes and reactions with pseudonymous visitor ids and exact times) is the `gated/` folder beside this one, with its own card: publish it as a separate repository with gated access, never inside this one.',
          ]
        : []),
      ...(input.optimisedRows
        ? [
            '',
            `The optimised preference set (${Object.entries(input.optimisedRows)
              .map(([subset, rows]) => `${subset} ${rows} rows`)
              .join(
                ', ',
              )}) is the \`optimised/\` folder beside this one, with its own card: a better reply written for real conversations of this arena, kept only when blind judges preferred it. Publish it as a dataset of its own.`,
          ]
        : []),
    );
    return lines;
  }
  lines.push(
    "This is the **gated** dataset: compar:IA's three tables, with column names that follow compar:IA's public datasets (Agora adds columns, never renames), and with what the public dataset leaves out: pseudonymous visitor ids that group one visitor's rows, session hashes of imported rows, timestamps to the millisecond, the places and providers' generation ids of imported rows. Grouping and timing are what make a person findable, so **access is gated**: for research only, under these terms — no redistribution, no attempt to identify anyone, and any personal data found reported to the operator. The operator turns on access requests in the repository's settings.",
    ...(hasOtherTier
      ? [
          '',
          'The public dataset (the same rows without what links them to a person or a moment, and the training subsets) is the `public/` folder beside this one.',
        ]
      : []),
  );
  return lines;
}

/** The public card's account of what it leaves out, column by column (docs/decisions/0008). */
export function publicWithholds(shuffleRows: number): string[] {
  return [
    '## What this dataset leaves out',
    '',
    "A conversation's text is in both datasets. What this one leaves out is what lets rows be grouped by person or placed in time: published search logs were re-identified by grouping one person's queries and reading them together, and the times of a few actions are enough to single most people out. compar:IA publishes its conversations, votes and reactions with a hashed visitor id and full timestamps; this dataset goes further on linkage:",
    '',
    ...Object.entries(PUBLIC_WITHHELD_COLUMNS).map(([column, reason]) => `- \`${column}\` is not published: ${reason}.`),
    '- `timestamp` holds the day only (UTC), with no time of day in any byte of the files.',
    `- Rows are not in time order: each run of ${shuffleRows} rows of a subset and language (in time order) is written ordered by a hash of its conversation's public id, so the order of the rows says nothing of the order of the visits within them.`,
    "- `country` and `city` are always null, and answers' `metadata.generation_id` too (a provider's generation id can hold the time of the request).",
    '- Free comments are published unless the personal-data rules flag them (then null), as in the gated dataset.',
    '',
    'The gated dataset has all of these. The rules deciding which conversations are published are the same for both.',
  ];
}

/** How to load a tier's folder, with its real config names. */
export function loading(configs: readonly SubsetConfigs[]): string[] {
  const first = configs[0];
  if (first === undefined) return [];
  const language = configs.flatMap((config) => config.languages.map((entry) => `${config.dataset}-${entry.language}`))[0];
  return [
    '## Load it',
    '',
    '```python',
    'from datasets import load_dataset',
    `ds = load_dataset("PATH_OR_REPO", split="train")  # the default config: ${first.dataset}, every language`,
    ...(language ? [`one = load_dataset("PATH_OR_REPO", "${language}", split="train")`] : []),
    '```',
    '',
    `DuckDB reads the files as they are: \`SELECT count(*) FROM read_parquet('PATH/${first.path}')\`.`,
  ];
}

/**
 * The card's DuckDB query keeping one conversation per near-duplicate prompt cluster (the earliest;
 * rows without a cluster all kept), over the files at `glob`. The export tests run it as written.
 */
export function dedupQuery(glob: string, format: DatasetFormat): string {
  return `SELECT * FROM ${format === 'parquet' ? 'read_parquet' : 'read_json'}('${glob}') QUALIFY coalesce(prompt_cluster, '') = '' OR row_number() OVER (PARTITION BY prompt_cluster ORDER BY timestamp, id) = 1`;
}

/** What `prompt_cluster` is, the board's rule built on it, and how a reader de-duplicates with it. */
export function duplicatePrompts(tier: DatasetTier, configs: readonly SubsetConfigs[]): string[] {
  // compar:IA's tables have the `timestamp` and `id` the query orders by; the training subsets do not.
  const table = configs.find((config) => ['conversations', 'votes', 'reactions'].includes(config.dataset));
  const percent = PROMPT_CLUSTER_CAP.share * 100;
  return [
    '## Duplicate prompts',
    '',
    `\`prompt_cluster\` groups conversations whose first prompt is a near-duplicate of another's (a pasted prompt, a class asking one question). The prompt is normalised (Unicode NFKC, case-folded, zero-width and other format characters removed, punctuation made spaces), cut into character ${SHINGLE_LENGTH}-grams and summarised by a MinHash signature of ${SIGNATURE_LENGTH} values; LSH over ${BANDS} bands of ${BAND_ROWS} values finds candidates, and a prompt joins a cluster when its estimated Jaccard similarity to the cluster's first prompt is at least ${PROMPT_CLUSTER_THRESHOLD}. The value is an opaque id, salted with a secret of the deployment: the same in every subset and every export of this arena, it leads back to no conversation or visitor. It is \`''\` for a conversation without a complete prompt and null for one not yet clustered (rows exported before clustering existed).`,
    '',
    `The arena's board counts one vote per visitor and cluster (the earliest), and a cluster's votes weigh together at most max(${PROMPT_CLUSTER_CAP.minVotes}, ${percent} % of the view's votes) (docs/ranking.md#duplicate-prompts in Agora's repository). Votes here are not de-duplicated: every vote is published.`,
    '',
    `To keep one ${table?.dataset === 'conversations' ? 'conversation' : 'row'} per cluster${table ? ' (the earliest)' : ''}, with ${table ? 'DuckDB or ' : ''}pandas:`,
    '',
    ...(table ? ['```sql', dedupQuery(`PATH/${table.path}`, table.format), '```', ''] : []),
    '```python',
    'df = ds.to_pandas()  # a subset loaded as above',
    'dedup = df[~df.duplicated("prompt_cluster") | df.prompt_cluster.fillna("").eq("")]',
    '```',
    ...(tier === 'gated'
      ? [
          '',
          "Partitioning by `visitor_id, prompt_cluster` instead keeps each visitor's first conversation per cluster, the board's first rule.",
        ]
      : []),
  ];
}

export function filtering(input: DatasetCardInput): string[] {
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
    'Privacy rules, applied to every subset of both datasets (a conversation left out takes its votes and reactions with it; nothing is redacted):',
    '',
    '- only conversations whose screening (language, topics, personal data) finished are published; never-screened and failed ones are not;',
    '- a conversation where the screening or a reviewer found personal data is left out whole;',
    "- a conversation a visitor reported is left out until a reviewer includes it; a reviewer's decision overrides the screening both ways;",
    '- cohorts the operator marked private are left out;',
    '- only turns that completed on both sides and were screened are published (a failed turn is never published one-sided);',
    '- visitor ids (gated dataset only) are salted hashes (the salt is a secret of the deployment): no IP, cookie or raw visitor id is published.',
    '',
    `Of ${exclusions.conversations} conversations in the store: ${exclusions.notScreened} not screened yet, ${exclusions.screeningFailed} whose screening failed, ${exclusions.flagged} flagged as containing personal data, ${exclusions.reportedNotReviewed} reported and not reviewed, ${exclusions.reviewerExcluded} excluded by a reviewer, ${exclusions.privateCohort} in private cohorts (${input.privateCohortCount} configured); ${exclusions.reviewerIncluded} flagged or reported ones were included by a reviewer.`,
    '',
    filters.length > 0 ? `Filters of this export: ${filters.join('; ')}.` : 'No further filter was applied.',
  ];
}

/** What each model's answers may be used for: the card's statement beside the `training_use` columns. */
export function trainingUse(input: DatasetCardInput): string[] {
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

/** Who screened the imported conversations: this arena, or their source taken at its word (`--trust-source`). */
function importedScreening(input: DatasetCardInput): string[] {
  const imported = [...input.sources.entries()].filter(([source]) => source !== 'arena');
  if (imported.length === 0) return [];
  const parts = imported.map(([source, count]) => {
    const trusted = input.trustedFromSource.get(source) ?? 0;
    return `${count} from \`${source}\`: ${count - trusted} screened by this arena like its own, ${trusted} taken as screened by their source`;
  });
  return [
    `- Imported conversations (${parts.join('; ')}). Those taken as screened were imported with \`agora import comparia --trust-source\`: this arena's rules and model layer never ran on them, only their source's screening, whose rules are not this arena's.`,
  ];
}

export function caveats(input: DatasetCardInput): string[] {
  const layer = (status: string) => input.modelLayer.get(status) ?? 0;
  const total = [...input.modelLayer.values()].reduce((sum, value) => sum + value, 0);
  return [
    '## Caveats',
    '',
    ...importedScreening(input),
    `- Screening layers: the deterministic personal-data detectors and language identification ran on all ${total} published conversations this arena screened; the model layer (topics, summary and a model's personal-data check) ran on ${layer('done')}, was not configured for ${layer('not_configured')}, failed for ${layer('failed')} and was still pending for ${layer('pending')}. Where it did not run, \`categories\`, \`keywords\` and \`short_summary\` are empty and personal data was looked for by the detectors only. Detectors miss things: report a problem to the operator.`,
    "- Votes judge a whole conversation. In `dpo` and `reward`, a first turn is an exact pair (`context_from = shared`); later turns use the chosen side's history as context (`context_from = chosen`), because the two histories differ after the first answer. Ties and both-bad votes make no pair; both-bad answers are `kto` negatives.",
    '- `pref_strength` comes from the tags the visitor chose, not from a model; most votes carry no tag and are `weak`.',
    "- `capabilities` (conversations and the TRL rows) lists the conversation's capability labels: `code`, `math`, `multi_turn` and `long_query` come from rules on the visitor's prompts (measured against a small hand-labelled set: docs/datasets.md#capabilities); `hard_prompt` (6 of LMArena's 7 criteria), the criteria, `creative_writing` and `instruction_following` come from the annotation model and are absent where it did not run. Null for conversations labelled before the labels existed.",
    "- Energy columns are estimates (EcoLogits) from output tokens and the model's parameter count; they are null for models of unknown size.",
    "- System prompts of arena conversations are the catalogue's at export time.",
    '- Imported rows (`source` other than `arena`) keep the values their source published for the columns Agora does not model.',
    '- Visitors choose what to ask: topics, languages and models are not balanced samples of anything.',
  ];
}
