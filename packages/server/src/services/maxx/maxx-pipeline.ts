import {
  type CallModel,
  IncompleteAnswerError,
  type JudgedReply,
  MalformedAnswerError,
  MaxxSteps,
  type ReactionContext,
} from '../../adapters/maxx-steps';
import type { ChatMessage, DatasetRow } from '../../domain/datasets/export-columns';
import { mostRestrictive } from '../../domain/datasets/training-use';
import { type CalibrationRecord, type SidePreference, judgeSidePreference } from '../../domain/maxx/maxx-calibration';
import type { MaxxItemStats } from '../../domain/maxx/maxx-outcome';
import {
  type BothOrders,
  type JudgedOriginal,
  type MaxxPrefStrength,
  type PairVerdict,
  decideArenaRow,
  decideReactionRow,
  failedCriteria,
  isPositionConsistent,
  pairOutcome,
  panelOutcome,
} from '../../domain/maxx/maxx-rules';
import { maxxRow } from '../../domain/maxx/maxx-rows';
import { neutraliseFormatting } from '../../domain/maxx/neutral-format';
import type { CallNotes } from './maxx-call-gateway';
import { type MaxxItem, type OriginalReply, sideHistory } from './maxx-items';
import type { TrainingUseLookup } from './maxx-roles';

/**
 * The steps of one item of the optimised set (docs/datasets.md#maxx-steps) and the rules that
 * decide on it: the optimal reply written turn by turn behind the critic's gate, judged by the
 * panel in both orders against each original on the history each answered, then styled. The same
 * code runs a real item and the dry run's estimate (with a stand-in for the models).
 */

export interface PipelineSettings {
  /** Drafts the critic may reject before an item is dropped. */
  gateAttempts: number;
  /** The judges also compare the item's two original replies against the visitor's preference. */
  calibrate: boolean;
  /** Judges on the panel. */
  judges: number;
  /** Role model ids that write the optimal reply (generator, stylist): their licences bound the row's training use. */
  writers: readonly string[];
  trainingUse: TrainingUseLookup;
}

/** What an item came to: a row, or the reason it has none. */
export type ItemOutcome =
  | { status: 'kept'; reason: null; row: DatasetRow; stats: MaxxItemStats }
  | { status: 'dropped'; reason: string; row: null; stats: MaxxItemStats };

/** Runs one item through the steps; `callFor(tag)` gives the calls of one turn and attempt. */
export async function processMaxxItem(
  item: MaxxItem,
  callFor: (tag: string, notes: CallNotes) => CallModel,
  settings: PipelineSettings,
): Promise<ItemOutcome> {
  const stats: MaxxItemStats = { pairs: [], panels: [], critic: { calls: 0, passes: 0 }, incompleteAnswers: 0 };
  const notes: CallNotes = { incompleteAnswers: 0 };
  const stepsFor = (tag: string) => new MaxxSteps(callFor(tag, notes));
  const dropped = (reason: string): ItemOutcome => {
    stats.incompleteAnswers = notes.incompleteAnswers;
    return { status: 'dropped', reason, row: null, stats };
  };
  try {
    // First, so that every item is calibrated, whether its optimal reply is kept or not.
    if (settings.calibrate) stats.calibration = await calibrationOf(item, stepsFor('calibration'), settings.judges);
    const written = await writeOptimal(item, stepsFor, stats, settings.gateAttempts);
    if ('dropped' in written) return dropped(written.dropped);
    const { history, optimal, reactionVerdict } = written;
    const steps = stepsFor('final');
    const judged = await judgeOriginals(steps, item, { history, text: optimal }, settings.judges, stats);
    const decision = decideRow(item, judged, reactionVerdict);
    if ('dropped' in decision) return dropped(decision.dropped);
    const { styled, sameContent } = await steps.style(optimal);
    if (!sameContent) return dropped('styled variant changed the content');
    const row = maxxRowOf(item, settings, { history, optimal, styled }, decision);
    stats.incompleteAnswers = notes.incompleteAnswers;
    return { status: 'kept', reason: null, row, stats };
  } catch (error) {
    // Both are the provider's fault, not the content's: a later run takes the item up again.
    if (error instanceof MalformedAnswerError) return dropped('malformed structured output');
    if (error instanceof IncompleteAnswerError) return dropped('truncated');
    throw error;
  }
}

/** What the critic said of a disliked answer's complaint, on the final turn's optimal reply. */
type ReactionVerdict = { fixesDefect: boolean; complaint: 'valid' | 'partly' | 'mistaken' };

/** The original replies a kept row rejects, and how strongly the optimal one is preferred. */
interface RowDecision {
  rejected: OriginalReply;
  rejected2: OriginalReply | null;
  prefStrength: MaxxPrefStrength;
}

/** The panel on the optimal reply against each original of the item's turn, each judging recorded in the item's stats. */
async function judgeOriginals(
  steps: MaxxSteps,
  item: MaxxItem,
  optimal: JudgedReply,
  judges: number,
  stats: MaxxItemStats,
): Promise<JudgedOriginal[]> {
  const judged: JudgedOriginal[] = [];
  for (const original of item.originals) {
    const judgings = await judgePanel(steps, optimal, original, judges);
    stats.panels!.push({ model: original.model, outcome: panelOutcome(judgings), judges: judgings.map(pairOutcome) });
    judgings.forEach((judging, judge) =>
      stats.pairs.push({
        model: original.model,
        judge: String(judge),
        consistent: isPositionConsistent(judging),
        won: pairOutcome(judging) === 'win',
      }),
    );
    judged.push({ side: original.side, text: original.text, judgings });
  }
  return judged;
}

/** The rules' decision on the judged item: a disliked answer's row, or an arena row against the visitor's preference. */
function decideRow(
  item: MaxxItem,
  judged: JudgedOriginal[],
  reactionVerdict: ReactionVerdict | undefined,
): RowDecision | { dropped: string } {
  if (item.subset === 'reactions') {
    const decision = decideReactionRow({
      fixesDefect: reactionVerdict?.fixesDefect ?? false,
      complaint: reactionVerdict?.complaint ?? 'mistaken',
      judgings: judged[0]!.judgings,
    });
    if (!decision.keep) return { dropped: decision.reason };
    return { rejected: item.originals[0]!, rejected2: null, prefStrength: decision.prefStrength };
  }
  const decision = decideArenaRow(judged, item.visitorPreference);
  if (!decision.keep) return { dropped: decision.reason };
  const bySide = (side: 'a' | 'b') => item.originals.find((original) => original.side === side)!;
  return {
    rejected: bySide(decision.rejected.side),
    rejected2: decision.rejected2 && bySide(decision.rejected2.side),
    prefStrength: decision.prefStrength,
  };
}

/** The kept item's row; its training use is bounded by the licences of the writers and of the rejected replies' models. */
function maxxRowOf(
  item: MaxxItem,
  settings: PipelineSettings,
  { history, optimal, styled }: { history: ChatMessage[]; optimal: string; styled: string },
  { rejected, rejected2, prefStrength }: RowDecision,
): DatasetRow {
  return maxxRow({
    subset: item.subset,
    sourceId: item.sourceId,
    messages: history,
    optimal,
    optimalStyled: styled,
    rejected: rejected.text,
    rejected2: rejected2?.text ?? null,
    prefStrength,
    defectTags: item.reaction?.tags,
    contextFrom: sameHistory(rejected.history, history) ? 'optimal' : 'original',
    language: item.language,
    trainingUse: mostRestrictive(
      [...settings.writers, rejected.model, ...(rejected2 ? [rejected2.model] : [])].map((model) => settings.trainingUse(model)),
    ),
  });
}

const sameHistory = (left: readonly ChatMessage[], right: readonly ChatMessage[]) =>
  left.length === right.length &&
  left.every((message, index) => message.role === right[index]!.role && message.content === right[index]!.content);

/**
 * The optimal reply of each turn up to the item's, each behind the critic's gate; the earlier
 * optimal replies are the history of the later turns. A disliked answer's defect is shown to the
 * generator and checked by the critic on the final turn only.
 */
async function writeOptimal(
  item: MaxxItem,
  stepsFor: (tag: string) => MaxxSteps,
  stats: MaxxItemStats,
  gateAttempts: number,
): Promise<
  | {
      history: ChatMessage[];
      optimal: string;
      reactionVerdict: { fixesDefect: boolean; complaint: 'valid' | 'partly' | 'mistaken' } | undefined;
    }
  | { dropped: string }
> {
  const history: ChatMessage[] = [];
  for (let index = 0; index <= item.turnIndex; index++) {
    history.push({ role: 'user', content: item.conversation.turns[index]!.prompt });
    const final = index === item.turnIndex;
    const reply = await gatedReply(stepsFor, history, item.language, final ? item.reaction : undefined, stats, `t${index}`, gateAttempts);
    if ('rejected' in reply) return { dropped: final ? reply.rejected : 'critic rejected an earlier turn' };
    if (final) return { history, optimal: reply.text, reactionVerdict: reply.reaction };
    history.push({ role: 'assistant', content: reply.text });
  }
  throw new Error('an item has at least one turn');
}

/**
 * Draft, cross-review and revision, then the critic's gate; a rejected draft is written again, up to
 * the limit. For a disliked answer the reply must also fix the flagged defect, unless the critic
 * finds the complaint mistaken (nothing to fix: the row is then `weak`). When every attempt fails,
 * the reason is the last one's: the rubric (`critic rejected`) or the defect (`defect not fixed`).
 */
async function gatedReply(
  stepsFor: (tag: string) => MaxxSteps,
  history: readonly ChatMessage[],
  language: string,
  reaction: ReactionContext | undefined,
  stats: MaxxItemStats,
  turnTag: string,
  gateAttempts: number,
): Promise<{ text: string; reaction?: { fixesDefect: boolean; complaint: 'valid' | 'partly' | 'mistaken' } } | { rejected: string }> {
  let reason = 'critic rejected';
  for (let attempt = 1; attempt <= gateAttempts; attempt++) {
    const tagged = stepsFor(`${turnTag}#${attempt}`);
    const draft = await tagged.draft(history, language, reaction);
    const defects = await tagged.review(history, draft);
    const reply = defects.length > 0 ? await tagged.revise(history, draft, defects, language, reaction) : draft;
    const verdict = await tagged.critic(history, reply, language, reaction);
    stats.critic.calls += 1;
    const rubricHolds = failedCriteria(verdict.rubric).length === 0;
    const defectHandled = reaction === undefined || verdict.reaction?.fixesDefect === true || verdict.reaction?.complaint === 'mistaken';
    if (rubricHolds && defectHandled) {
      stats.critic.passes += 1;
      return { text: reply, reaction: verdict.reaction };
    }
    reason = rubricHolds ? 'defect not fixed' : 'critic rejected';
  }
  return { rejected: reason };
}

/**
 * Each judge of the panel on the optimal reply against one original, in both orders, formatting
 * removed from both; each reply follows the history it answered.
 */
async function judgePanel(steps: MaxxSteps, optimal: JudgedReply, original: OriginalReply, judges: number): Promise<BothOrders[]> {
  const plainOptimal: JudgedReply = { history: optimal.history, text: neutraliseFormatting(optimal.text) };
  const plainOriginal: JudgedReply = { history: original.history, text: neutraliseFormatting(original.text) };
  const judgings: BothOrders[] = [];
  for (let judge = 0; judge < judges; judge++) {
    const first = await steps.judge(plainOptimal, plainOriginal, judge);
    const second = await steps.judge(plainOriginal, plainOptimal, judge);
    judgings.push({ optimalFirst: verdictOf(first.better, 'A'), optimalSecond: verdictOf(second.better, 'B') });
  }
  return judgings;
}

/** A judge's answer on one ordering, mapped to the replies: the optimal was shown at `optimalAt`. */
function verdictOf(better: 'A' | 'B' | 'tie', optimalAt: 'A' | 'B'): PairVerdict {
  return { preferred: better === 'tie' ? 'tie' : better === optimalAt ? 'optimal' : 'original' };
}

/**
 * The panel on the two original replies of the item's turn, in both orders, formatting removed, each
 * on the history its side answered, next to what the visitor preferred. With several judges, the
 * panel's side is the one every judge's two orders agree on. An answer that is not the JSON asked for
 * leaves the pair out.
 */
async function calibrationOf(item: MaxxItem, steps: MaxxSteps, judges: number): Promise<CalibrationRecord> {
  const turn = item.conversation.turns[item.turnIndex]!;
  const reply = (side: 'a' | 'b'): JudgedReply => ({
    history: item.originals.find((original) => original.side === side)?.history ?? sideHistory(item.conversation, side, item.turnIndex),
    text: neutraliseFormatting(turn[side].text),
  });
  const [a, b] = [reply('a'), reply('b')];
  const side = (better: 'A' | 'B' | 'tie', shownAsA: 'a' | 'b'): SidePreference =>
    better === 'tie' ? 'tie' : (better === 'A') === (shownAsA === 'a') ? 'a' : 'b';
  try {
    const verdicts: (SidePreference | 'inconsistent')[] = [];
    for (let judge = 0; judge < judges; judge++) {
      const aFirst = await steps.judge(a, b, judge);
      const bFirst = await steps.judge(b, a, judge);
      verdicts.push(judgeSidePreference({ aFirst: side(aFirst.better, 'a'), bFirst: side(bFirst.better, 'b') }));
    }
    // A split panel counts as a disagreement with the visitor, as a position-inconsistent judge does.
    const panel = verdicts.every((verdict) => verdict === verdicts[0]) ? verdicts[0]! : 'inconsistent';
    return { human: item.visitorPreference, judge: panel, key: item.calibrationKey };
  } catch (error) {
    if (error instanceof MalformedAnswerError || error instanceof IncompleteAnswerError)
      return { human: item.visitorPreference, judge: null, key: item.calibrationKey };
    throw error;
  }
}
