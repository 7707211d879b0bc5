import { z } from 'zod';

/**
 * The capability labels of a conversation (docs/ranking.md#capability-views): LMArena's hard prompts
 * (6 of its 7 criteria met) and each criterion, creative writing, instruction following (the
 * annotation model's), code, math, multi-turn and long query (rules). Each is a board view, an export
 * value and a filter. The server's domain/annotation/capabilities.ts builds the same list (a test
 * holds them equal).
 */
export const CAPABILITY_LABELS = [
  'hard_prompt',
  'specificity',
  'domain_knowledge',
  'complexity',
  'problem_solving',
  'creativity',
  'technical_accuracy',
  'real_world_application',
  'creative_writing',
  'instruction_following',
  'code',
  'math',
  'multi_turn',
  'long_query',
] as const;
export const capabilitySchema = z.enum(CAPABILITY_LABELS);
export type Capability = z.infer<typeof capabilitySchema>;
