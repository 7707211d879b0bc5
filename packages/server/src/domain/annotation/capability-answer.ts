import { MODEL_CAPABILITIES, type ModelCapability, type ModelCapabilityAnswer } from './capabilities';

/*
 * The annotation model's capability answer, read leniently: the labels ride in the same JSON object
 * as the topics ("capabilities": {"specificity": true, …}), but a model that cuts off mid-object,
 * wraps it in prose or a fence, writes "yes" for true or leaves labels out still gives the labels
 * it did write. A refusal gives none, and the conversation keeps only its rule labels.
 */

const TRUE_WORDS = new Set(['true', '1', 'yes', 'oui', 'ja', 'taip']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'non', 'nej', 'ne']);

/** `"label": value` pairs, wherever they stand in the text (quotes optional around the value). */
const PAIR = /"([a-z_]+)"\s*:\s*"?([A-Za-z0-9]+)"?/g;

const isModelCapability = (key: string): key is ModelCapability => (MODEL_CAPABILITIES as readonly string[]).includes(key);

/**
 * Every model label the answer gives a yes or no for; undefined when it gives none (a refusal, an
 * answer cut off before the labels, or one without them). The first value of a label wins: a model
 * that repeats a key in its prose does not overturn its JSON.
 */
export function capabilitiesOfModelAnswer(text: string): ModelCapabilityAnswer | undefined {
  const answer: ModelCapabilityAnswer = {};
  let found = false;
  for (const match of text.matchAll(PAIR)) {
    const key = match[1]!;
    const value = match[2]!.toLowerCase();
    if (!isModelCapability(key) || answer[key] !== undefined) continue;
    if (TRUE_WORDS.has(value)) answer[key] = true;
    else if (FALSE_WORDS.has(value)) answer[key] = false;
    else continue;
    found = true;
  }
  return found ? answer : undefined;
}

/** The part of the annotation prompt that asks for the labels (one yes/no per label, as LMArena's judge gives). */
export const CAPABILITY_INSTRUCTIONS = `- "capabilities": an object of booleans about what the visitor's prompts ask for (judge the prompts, not the answers):
  "specificity" (asks for a specific output), "domain_knowledge" (covers one or more specific domains),
  "complexity" (has multiple levels of reasoning, components or variables), "problem_solving" (asks the model to actively solve a problem),
  "creativity" (calls for a creative approach), "technical_accuracy" (the answer must be technically accurate),
  "real_world_application" (relates to a real-world use), "creative_writing" (asks for original fiction, poetry, lyrics, a story or a role-play),
  "instruction_following" (sets explicit constraints on the answer: a length, a format, words to use or avoid, a structure).
  Judge prompts in any language the same way.`;
