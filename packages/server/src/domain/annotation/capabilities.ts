/**
 * Capability labels of a conversation, after LMArena's categories: the seven hard-prompt criteria
 * (https://lmsys.org/blog/2024-05-17-category-hard/: a prompt is "hard" when it meets 6 or more of
 * the 7), and coding, math, creative writing, instruction following, multi-turn and long queries.
 * Each label is a board view, an export column value and a filter (docs/ranking.md#capability-views).
 */

/** LMArena's seven hardness criteria, in their order. */
export const HARD_PROMPT_CRITERIA = [
  'specificity',
  'domain_knowledge',
  'complexity',
  'problem_solving',
  'creativity',
  'technical_accuracy',
  'real_world_application',
] as const;
export type HardPromptCriterion = (typeof HARD_PROMPT_CRITERIA)[number];

/** Criteria a conversation must meet to be hard, as LMArena's Hard Prompts category counts them. */
export const HARD_PROMPT_MIN_CRITERIA = 6;

/** Labels the deterministic rules decide (capability-rules.ts): no model call needed. */
export const RULE_CAPABILITIES = ['code', 'math', 'multi_turn', 'long_query'] as const;
export type RuleCapability = (typeof RULE_CAPABILITIES)[number];

/** Labels only the annotation model can tell (a judgement about what the prompt asks for). */
export const MODEL_CAPABILITIES = [...HARD_PROMPT_CRITERIA, 'creative_writing', 'instruction_following'] as const;
export type ModelCapability = (typeof MODEL_CAPABILITIES)[number];

/** Every label, as stored, exported and offered as a board view. */
export const CAPABILITY_LABELS = ['hard_prompt', ...MODEL_CAPABILITIES, ...RULE_CAPABILITIES] as const;
export type CapabilityLabel = (typeof CAPABILITY_LABELS)[number];

/** What the model said of each label it answered for; a label it left out (cut-off, refusal) is absent. */
export type ModelCapabilityAnswer = Partial<Record<ModelCapability, boolean>>;

const isCapability = (value: string): value is CapabilityLabel => (CAPABILITY_LABELS as readonly string[]).includes(value);

/**
 * Whether the model's criteria make the conversation hard: true at 6 met, false when even the
 * criteria it left out could not reach 6, undefined when they still could (a cut-off answer).
 */
export function isHardPrompt(answer: ModelCapabilityAnswer): boolean | undefined {
  const met = HARD_PROMPT_CRITERIA.filter((criterion) => answer[criterion] === true).length;
  const unknown = HARD_PROMPT_CRITERIA.filter((criterion) => answer[criterion] === undefined).length;
  if (met >= HARD_PROMPT_MIN_CRITERIA) return true;
  if (met + unknown < HARD_PROMPT_MIN_CRITERIA) return false;
  return undefined;
}

/**
 * A conversation's labels, in {@link CAPABILITY_LABELS} order: the rules' labels, and the model's
 * when it answered (none without an annotation model, or when it refused).
 */
export function combineCapabilities(rules: ReadonlySet<RuleCapability>, model: ModelCapabilityAnswer | undefined): CapabilityLabel[] {
  const labels = new Set<string>(rules);
  if (model) {
    for (const label of MODEL_CAPABILITIES) if (model[label] === true) labels.add(label);
    if (isHardPrompt(model) === true) labels.add('hard_prompt');
  }
  return CAPABILITY_LABELS.filter((label) => labels.has(label));
}

/**
 * The rules' labels now with the model's labels of an earlier annotation (a conversation labelled by a
 * model that grew while none is configured keeps what the model said, as it keeps its topics).
 */
export function withEarlierModelLabels(
  rules: ReadonlySet<RuleCapability>,
  earlier: readonly string[] | null | undefined,
): CapabilityLabel[] {
  const fromModel = new Set<string>(['hard_prompt', ...MODEL_CAPABILITIES]);
  const kept = normaliseCapabilities(earlier ?? []).filter((label) => fromModel.has(label));
  return normaliseCapabilities([...rules, ...kept]);
}

/** Labels read back from a store or a file: unknown ones dropped, order and duplicates normalised. */
export function normaliseCapabilities(values: readonly string[]): CapabilityLabel[] {
  const known = new Set(values.filter(isCapability));
  return CAPABILITY_LABELS.filter((label) => known.has(label));
}

/**
 * Capability labels ride in the vote columns' category list under this prefix, so that a label's
 * board view is computed exactly as a topic's (docs/ranking.md#capability-views) and never
 * collides with a topic name.
 */
export const CAPABILITY_CATEGORY_PREFIX = 'capability:';

export const capabilityCategory = (label: CapabilityLabel): string => `${CAPABILITY_CATEGORY_PREFIX}${label}`;

/** The label of a category of the vote columns, or undefined for a topic. */
export function capabilityOfCategory(category: string): CapabilityLabel | undefined {
  if (!category.startsWith(CAPABILITY_CATEGORY_PREFIX)) return undefined;
  const label = category.slice(CAPABILITY_CATEGORY_PREFIX.length);
  return isCapability(label) ? label : undefined;
}

/** A vote's categories for the ranking: its topics, then its capability labels in their namespace. */
export function rankingCategories(topics: readonly string[] | null, capabilities: readonly string[] | null): string[] | null {
  if (capabilities === null || capabilities.length === 0) return topics === null ? null : [...topics];
  return [...(topics ?? []), ...normaliseCapabilities(capabilities).map(capabilityCategory)];
}
