import { type CallModel, type MaxxRole, judgedReplyText } from '../../adapters/maxx-steps';
import type { Accounting } from './maxx-call-gateway';
import { callKey, modelOfCall } from './maxx-call-gateway';
import type { MaxxItem } from './maxx-items';
import { type MaxxRoles, callSettingsOf } from './maxx-roles';

/**
 * The dry run's models: they answer as a passing pipeline would, so that the real steps run and the
 * estimate counts the calls and tokens of the real prompts. The generator writes as much as the
 * longer original reply of the turn, the reviewer finds one defect, the critic passes, the judges
 * prefer the optimal reply. A call that several items would share (same model, prompt and settings:
 * the first turns of a voted duel and of its disliked answer) is counted once, as the real run
 * sends it once.
 */

export interface MaxxPlan {
  /** Eligible items, and those of them that already have an outcome (a later run does not process them again). */
  items: number;
  alreadyDone: number;
  bySubset: Record<string, number>;
  byLanguage: Record<string, number>;
  /**
   * For the items without an outcome, assuming every gate passes at the first draft after one
   * revision (fewer calls when the reviewer finds nothing, more when the critic rejects a draft);
   * hidden reasoning tokens are not counted. Calls shared by items count once. Cost is null for a
   * role without a catalogue price.
   */
  estimatedCalls: number;
  /** The estimated calls by step (draft, review, revise, critic, judge, style…). */
  estimatedCallsByStep: Record<string, number>;
  estimatedTokens: Record<MaxxRole, { input: number; output: number }>;
  estimatedCostUsd: Record<MaxxRole, number | null>;
  /** Null when a role has no price. */
  estimatedTotalCostUsd: number | null;
}

/** Marks the stand-in's optimal reply, so that its judge can prefer it wherever it is shown. */
const STAND_IN_OPTIMAL = '[optimal]';
/** About what a model writes in the free-text fields of a structured answer. */
const STAND_IN_NOTE = 'The reply answers the question correctly and completely, in the right language, with no invented fact.';

/** The stand-in calls of one item's attempt; `seen` holds the keys of calls already counted in this plan. */
export function standInCall(
  item: MaxxItem,
  roles: MaxxRoles,
  tag: string,
  estimate: Accounting,
  seen: Set<string>,
  countTokens: (text: string) => number,
  unpriced: Set<MaxxRole>,
): CallModel {
  return (call) => {
    const lastUser = call.messages.findLast(
      (message) => message.role === 'user' && item.conversation.turns.some((turn) => turn.prompt === message.content),
    );
    const turn =
      item.conversation.turns.find((candidate) => candidate.prompt === lastUser?.content) ?? item.conversation.turns[item.turnIndex]!;
    const reply = `${turn.a.text.length >= turn.b.text.length ? turn.a.text : turn.b.text} ${STAND_IN_OPTIMAL}`;
    const userText = call.messages.at(-1)?.content ?? '';
    const answer = ((): string => {
      switch (call.step) {
        case 'draft':
        case 'revise':
        case 'style':
          return reply;
        case 'review':
          return JSON.stringify({ defects: [STAND_IN_NOTE] });
        case 'critic':
        case 'critic-reaction':
          return JSON.stringify({
            correct: true,
            complete: true,
            follows_instructions: true,
            right_language: true,
            no_invented_facts: true,
            fixes_defect: true,
            complaint: 'valid',
            notes: STAND_IN_NOTE,
          });
        case 'judge':
          return JSON.stringify({ reasons: STAND_IN_NOTE, better: judgedReplyText(userText, 'A').includes(STAND_IN_OPTIMAL) ? 'A' : 'B' });
        default:
          return JSON.stringify({ same_content: true, differences: [] });
      }
    })();
    const model = modelOfCall(roles, call);
    const key = callKey(model, tag, call, callSettingsOf(call.role, model, tag));
    if (!seen.has(key)) {
      seen.add(key);
      estimate.calls += 1;
      estimate.byStep[call.step] = (estimate.byStep[call.step] ?? 0) + 1;
      const input = call.messages.reduce((sum, message) => sum + countTokens(message.content), 0);
      const output = countTokens(answer);
      estimate.tokens[call.role].input += input;
      estimate.tokens[call.role].output += output;
      // Each call at its own model's price: the judges of a panel may cost differently.
      if (model.pricing)
        estimate.costUsd[call.role] += (input * model.pricing.inputPerMillionUsd + output * model.pricing.outputPerMillionUsd) / 1_000_000;
      else unpriced.add(call.role);
    }
    return Promise.resolve(answer);
  };
}
