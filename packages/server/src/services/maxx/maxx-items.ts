import { randomBytes } from 'node:crypto';
import type { ReactionContext } from '../../adapters/maxx-steps';
import type { Store } from '../../db/unit-of-work';
import type { ExportableConversation } from '../../db/repositories/dataset.repository';
import { prepareConversation } from '../../domain/datasets/conversation-rows';
import type { ChatMessage } from '../../domain/datasets/export-columns';
import { rowContext } from '../../adapters/dataset-files/row-context';
import { sourceMetaValue } from '../../domain/datasets/source-meta';
import { type SidePreference, dislikeSidePreference, voteSidePreference } from '../../domain/maxx/maxx-calibration';
import { MAXX_SUBSETS, type MaxxSubset, subsetOfVote } from '../../domain/maxx/maxx-rules';
import { publishableComment } from '../../domain/privacy';

/** An original reply of the item's turn, with the conversation it answered (its side's own earlier replies). */
export interface OriginalReply {
  side: 'a' | 'b';
  model: string;
  text: string;
  /** The user turns and this side's earlier replies, up to the item's final user message. */
  history: ChatMessage[];
}

/** One eligible item: the turn a row is about, the replies it must beat, and what the visitor flagged. */
export interface MaxxItem {
  key: string;
  subset: MaxxSubset;
  sourceId: string;
  language: string;
  conversation: ExportableConversation;
  /** Index in `conversation.turns` of the row's final user turn. */
  turnIndex: number;
  originals: OriginalReply[];
  reaction?: ReactionContext;
  /** Which of the turn's two replies the visitor preferred (their vote, or the other side of a dislike): the judge's calibration. */
  visitorPreference: SidePreference;
  /**
   * The conversation and turn whose two original replies the calibration judges: a vote and a
   * dislike of the same turn share it, and it is judged (and counted) once.
   */
  calibrationKey: string;
}

/** The history side `side` of a duel answered at turn `turnIndex`: every user turn up to it, with that side's replies before it. */
export function sideHistory(conversation: ExportableConversation, side: 'a' | 'b', turnIndex: number): ChatMessage[] {
  const history: ChatMessage[] = [];
  for (let index = 0; index <= turnIndex; index++) {
    const turn = conversation.turns[index]!;
    history.push({ role: 'user', content: turn.prompt });
    if (index < turnIndex) history.push({ role: 'assistant', content: turn[side].text });
  }
  return history;
}

/** The items of one conversation: its vote (an arena row about its last turn) and each disliked answer. */
export function itemsOf(conversation: ExportableConversation, context: ReturnType<typeof rowContext>): MaxxItem[] {
  const source = itemSourceOf(conversation, context);
  return [...voteItems(source), ...verdictItems(source), ...dislikeItems(source)];
}

/** What every item of one conversation is made from: the conversation, its export ids, and how a turn's language and originals read. */
interface ItemSource {
  conversation: ExportableConversation;
  prepared: ReturnType<typeof prepareConversation>;
  languageOf: (index: number) => string;
  original: (side: 'a' | 'b', index: number) => OriginalReply;
}

function itemSourceOf(conversation: ExportableConversation, context: ReturnType<typeof rowContext>): ItemSource {
  return {
    conversation,
    prepared: prepareConversation(conversation, context),
    languageOf: (index) => conversation.promptLanguages[index] ?? conversation.languages?.[0] ?? 'und',
    original: (side, index) => ({
      side,
      model: conversation.turns[index]![side].modelId,
      text: conversation.turns[index]![side].text,
      history: sideHistory(conversation, side, index),
    }),
  };
}

/** The conversation's vote: an arena item about its last turn. */
function voteItems({ conversation, prepared, languageOf, original }: ItemSource): MaxxItem[] {
  const { turns } = conversation;
  if (conversation.vote === null || turns.length === 0) return [];
  const last = turns.length - 1;
  const subset = subsetOfVote(conversation.vote.choice);
  return [
    {
      key: `${conversation.createdAt}|${prepared.pairId}|${subset}`,
      subset,
      sourceId: prepared.pairId,
      language: languageOf(last),
      conversation,
      turnIndex: last,
      originals: [original('a', last), original('b', last)],
      visitorPreference: voteSidePreference(conversation.vote.choice),
      calibrationKey: `${prepared.pairId}|${last}`,
    },
  ];
}

/** A verdict on one turn (compar:IA's per-response arena data) is an arena item about that turn, with the source row's id. */
function verdictItems({ conversation, prepared, languageOf, original }: ItemSource): MaxxItem[] {
  const items: MaxxItem[] = [];
  for (const verdict of conversation.turnVerdicts) {
    const index = conversation.turns.findIndex((turn) => turn.turn === verdict.turn);
    if (index < 0) continue;
    const subset = verdict.choice === 'both_bad' ? 'arena-both_bad' : 'arena-general';
    items.push({
      key: `${conversation.createdAt}|${prepared.pairId}|${subset}|turn ${verdict.turn}`,
      subset,
      sourceId: verdict.sourceId ?? `${prepared.pairId}-${index}`,
      language: languageOf(index),
      conversation,
      turnIndex: index,
      originals: [original('a', index), original('b', index)],
      visitorPreference: verdict.choice === 'a' || verdict.choice === 'b' ? verdict.choice : 'tie',
      calibrationKey: `${prepared.pairId}|${index}`,
    });
  }
  return items;
}

/** Each disliked answer: a reactions item about its turn, against that answer alone. */
function dislikeItems({ conversation, prepared, languageOf, original }: ItemSource): MaxxItem[] {
  const items: MaxxItem[] = [];
  for (const reaction of conversation.reactions) {
    if (reaction.liked) continue;
    const index = conversation.turns.findIndex((turn) => turn.turn === reaction.turn);
    if (index < 0) continue;
    const msgIndex = (reaction.side === 'a' ? prepared.headA : prepared.headB) + 2 * index + 1;
    // An imported reaction keeps its source's id, as the reactions file of the open datasets writes it back.
    const sourceId =
      (sourceMetaValue(reaction.sourceMeta, 'id', 'string') as string | undefined) ??
      `${reaction.side === 'a' ? prepared.convAId : prepared.convBId}-${msgIndex}`;
    const disliked = conversation.turns[index]![reaction.side];
    items.push({
      key: `${conversation.createdAt}|${prepared.pairId}|reactions|${sourceId}`,
      subset: 'reactions',
      sourceId,
      language: languageOf(index),
      conversation,
      turnIndex: index,
      originals: [original(reaction.side, index)],
      // A comment with personal data is not sent to the role models either.
      reaction: { disliked: disliked.text, tags: reaction.tags, comment: publishableComment(reaction.comment) },
      visitorPreference: dislikeSidePreference(
        reaction.side,
        conversation.reactions.some((other) => other.turn === reaction.turn && other.side !== reaction.side && !other.liked),
      ),
      calibrationKey: `${prepared.pairId}|${index}`,
    });
  }
  return items;
}

/** An item of a run: the same conversation run with other models, prompts or rules is another item. */
export const runItemKey = (runKey: string, item: Pick<MaxxItem, 'key'>): string => `${runKey}|${item.key}`;

export interface ItemFilter {
  subsets?: readonly MaxxSubset[] | undefined;
  language?: string | undefined;
  limit?: number | undefined;
}

/**
 * The items the store makes eligible now, in its order: conversations that pass the privacy rules
 * of the open datasets (screened, not excluded, not reported, not of a private cohort). A set is
 * assembled only from these, so a conversation excluded or erased after its item ran leaves the set.
 */
export async function listEligibleItems(store: Store, privateCohorts: readonly string[], filter: ItemFilter = {}): Promise<MaxxItem[]> {
  const salt = await store.datasets.visitorSalt(() => randomBytes(32).toString('hex'));
  const context = rowContext(salt, new Map());
  const wanted = new Set(filter.subsets ?? MAXX_SUBSETS);
  const items: MaxxItem[] = [];
  for await (const batch of store.datasets.exportableConversations({ privateCohorts, batchSize: 500 })) {
    for (const conversation of batch) {
      for (const item of itemsOf(conversation, context)) {
        if (!wanted.has(item.subset)) continue;
        if (filter.language !== undefined && item.language !== filter.language) continue;
        items.push(item);
        if (filter.limit !== undefined && items.length >= filter.limit) return items;
      }
    }
  }
  return items;
}

/**
 * Why a run has no eligible item, in words for the operator and the card: an empty store, no
 * conversation screened yet, every one excluded, or the filters.
 */
export async function whyNoItem(store: Store, privateCohorts: readonly string[], options: ItemFilter = {}): Promise<string> {
  const counts = await store.datasets.exclusionCounts(privateCohorts);
  const conversations = (count: number) => `${count} conversation${count === 1 ? '' : 's'}`;
  if (counts.conversations === 0) return 'the store has no conversation yet';
  const unscreened = counts.notScreened + counts.screeningFailed;
  if (unscreened === counts.conversations)
    return `none of the store's ${conversations(counts.conversations)} has passed personal-data screening yet (run \`agora postprocess\`, or import screened data)`;
  const excluded = counts.privateCohort + counts.reviewerExcluded + counts.flagged + counts.reportedNotReviewed;
  if (unscreened + excluded === counts.conversations)
    return `of the store's ${conversations(counts.conversations)}, ${unscreened} not screened yet and ${excluded} kept out of the open datasets (personal data, private cohort, reviewer's decision or a report)`;
  if (options.subsets !== undefined || options.language !== undefined) return 'no screened conversation matches --subset and --language';
  return 'no screened conversation has a vote or a disliked answer';
}
