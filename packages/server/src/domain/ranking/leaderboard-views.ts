import { computeLeaderboard, type ArenaVote, type Leaderboard, matchesFromReactions } from '.';
import { VoteTableBuilder } from './vote-table';
import { type ViewVote, type VoteColumns, hasCategory } from './vote-columns';
import type { RankingReactionRecord, RankingVoteRecord } from './ranking-records';
import { promptClusterWeighting } from './prompt-cluster-cap';

/** Which votes a view ranks, and whether style is controlled. */
export interface ViewDefinition {
  key: string;
  style: 'plain' | 'controlled';
  language: string | null;
  mode: string | null;
  category: string | null;
  /** Votes of these modes count only in their own mode's view (see {@link OWN_VIEW_MODES}); none when absent. */
  ownViewModes?: readonly string[] | undefined;
}

/**
 * Modes whose arena votes count only in their own view (`mode=custom`), not on the main board nor in
 * the language and topic views: the visitor chose the models, so a campaign can put its model in
 * every duel. LMArena ranks only anonymous, randomly paired battles. Imported votes were curated by
 * their publisher and count everywhere. `AGORA_LEADERBOARD_CUSTOM_ON_MAIN=1` counts them everywhere
 * again (docs/ranking.md#live-leaderboard).
 */
export const OWN_VIEW_MODES: readonly string[] = ['custom'];

/** 1 for the mode indices of {@link VoteColumns.modes} whose arena votes are kept to their own view. */
export function ownViewModeMask(modes: readonly string[], ownViewModes: readonly string[]): Uint8Array {
  return Uint8Array.from(modes, (mode) => (ownViewModes.includes(mode) ? 1 : 0));
}

/** Whether a vote counts only in its own mode's view: an arena vote of a mode of the mask ({@link ownViewModeMask}). */
export function keptToOwnView(columns: Pick<VoteColumns, 'arena' | 'mode'>, ownViewMask: Uint8Array, row: number): boolean {
  return columns.arena[row] === 1 && ownViewMask[columns.mode[row]!] === 1;
}

/** The key of a view, as stored with its snapshots: `overall|plain`, `language=fr|controlled`, … */
export function viewKey(filter: {
  style: 'plain' | 'controlled';
  language?: string | null;
  mode?: string | null;
  category?: string | null;
}): string {
  const parts = [
    ...(filter.language ? [`language=${filter.language}`] : []),
    ...(filter.mode ? [`mode=${filter.mode}`] : []),
    ...(filter.category ? [`category=${filter.category}`] : []),
  ];
  return `${parts.length > 0 ? parts.join('&') : 'overall'}|${filter.style}`;
}

/** What post-processing detected: the conversation's languages and each turn's. */
export interface DetectedLanguages {
  languages: readonly string[] | null;
  messageLanguages: readonly { prompt: string }[] | null;
}

/**
 * The language of a vote, for per-language views: the visitor's language, i.e. the most frequent
 * language of their prompts (the earliest on a tie) as detected by post-processing, else the
 * conversation's main language; before post-processing ran (or when it could not tell), the
 * primary subtag of the visitor's locale (`fr-CA` → `fr`). A French prompt answered in English
 * still counts for French: the views say which models serve the visitors of a language.
 */
export function voteLanguage(locale: string | null, detected?: DetectedLanguages): string | null {
  const prompts = (detected?.messageLanguages ?? []).map((turn) => turn.prompt).filter((language) => language !== 'und');
  const counts = new Map<string, number>();
  for (const language of prompts) counts.set(language, (counts.get(language) ?? 0) + 1);
  const fromPrompts = [...counts].sort((left, right) => right[1] - left[1])[0]?.[0];
  if (fromPrompts) return fromPrompts;
  const main = detected?.languages?.[0];
  if (main && main !== 'und') return main;
  return locale ? locale.split('-')[0]!.toLowerCase() : null;
}

/** `integrity`: the vote's integrity flags (docs/arena.md#vote-integrity), which keep it out like an identity leak. */
export function toViewVote(record: RankingVoteRecord, integrity: readonly string[] = []): ViewVote {
  const style = record.a && record.b ? { a: record.a.style, b: record.b.style } : undefined;
  return {
    vote: {
      modelA: record.modelA,
      modelB: record.modelB,
      choice: record.choice as ArenaVote['choice'],
      flags: [
        ...(record.identityLeak ? ['identity_leak'] : []),
        ...(record.servedModelMismatch ? ['served_model_mismatch'] : []),
        ...integrity,
      ],
      style,
      energy: { a: record.a?.energyWh ?? null, b: record.b?.energyWh ?? null },
    },
    language: voteLanguage(record.locale, record),
    mode: record.mode,
    categories: record.categories ?? [],
    promptCluster: record.promptCluster || null,
  };
}

const choiceOfOutcome = { model_a: 'a', model_b: 'b', tie: 'tie', both_bad: 'both_bad' } as const;

/**
 * compar:IA's reaction matches (one per duel, see `matchesFromReactions`), as extra votes of the
 * duel's language and mode. Duels whose models named themselves are left out, as their votes are.
 */
export function reactionViewVotes(reactions: readonly RankingReactionRecord[]): ViewVote[] {
  const perDuel = new Map<string, RankingReactionRecord[]>();
  for (const reaction of reactions) {
    if (reaction.identityLeak) continue;
    const group = perDuel.get(reaction.duelId);
    if (group) group.push(reaction);
    else perDuel.set(reaction.duelId, [reaction]);
  }
  return [...perDuel.values()].flatMap((group) => {
    const [match] = matchesFromReactions(
      group.map((reaction) => ({
        duelId: reaction.duelId,
        modelA: reaction.modelA,
        modelB: reaction.modelB,
        side: reaction.side,
        liked: reaction.liked,
        messageRank: reaction.turn - 1,
      })),
    );
    if (!match) return [];
    const duel = group[0]!;
    return [
      {
        vote: { modelA: match.modelA, modelB: match.modelB, choice: choiceOfOutcome[match.outcome] },
        language: voteLanguage(duel.locale, duel),
        mode: duel.mode,
        categories: duel.categories ?? [],
      },
    ];
  });
}

/**
 * Ranks the votes of each view (votes without style counts are left out of controlled views), over
 * the columns: each view's vote table holds its votes in row order, models numbered as they come
 * (as `buildVoteTable` does). `counted[i]` is 1 when vote i carries no flag that keeps it out
 * ({@link countedVotes}).
 */
export function computeViewsFromColumns(
  columns: VoteColumns,
  counted: Uint8Array,
  views: readonly ViewDefinition[],
): Map<string, Leaderboard> {
  const results = new Map<string, Leaderboard>();
  const counts = new Uint32Array(8);
  for (const view of views) {
    const language = view.language === null ? -1 : columns.languages.indexOf(view.language);
    const mode = view.mode === null ? -1 : columns.modes.indexOf(view.mode);
    const category = view.category === null ? -1 : columns.categories.indexOf(view.category);
    const controlled = view.style === 'controlled';
    const ownView = ownViewModeMask(columns.modes, view.ownViewModes ?? []);
    const builder = new VoteTableBuilder();
    // Column model index → the builder's, interned on first sight as buildVoteTable does.
    const modelIndex = new Int32Array(columns.models.length).fill(-1);
    const indexOf = (model: number) =>
      modelIndex[model]! >= 0 ? modelIndex[model]! : (modelIndex[model] = builder.modelIndex(columns.models[model]!));
    const inView = (row: number) =>
      counted[row] === 1 &&
      (view.language === null || columns.language[row] === language) &&
      (view.mode === null ? !keptToOwnView(columns, ownView, row) : columns.mode[row] === mode) &&
      (view.category === null || hasCategory(columns, row, category)) &&
      (!controlled || columns.hasStyle[row] === 1);
    // Sized once: growing by copies would hold the old and the new table at once, at the refresh's peak.
    let rows = 0;
    for (let row = 0; row < columns.length; row++) if (inView(row)) rows++;
    builder.reserve(rows);
    // The view's rows' prompt clusters, for the cap on a cluster's weight (prompt-cluster-cap.ts).
    const clusters = new Int32Array(rows);
    for (let row = 0, tableRow = 0; row < columns.length; row++) {
      if (!inView(row)) continue;
      clusters[tableRow++] = columns.promptCluster[row]!;
      const a = indexOf(columns.modelA[row]!);
      const b = indexOf(columns.modelB[row]!);
      if (controlled) {
        counts.set(columns.style.subarray(row * 8, row * 8 + 8));
        builder.addIndexed(a, b, columns.choice[row]!, counts);
      } else builder.addIndexed(a, b, columns.choice[row]!);
    }
    results.set(view.key, computeLeaderboard(builder.finish(), { style: controlled, weighting: promptClusterWeighting(clusters) }));
  }
  return results;
}

/** Votes that count: no flag from the store (identity leak, served model) and none from the integrity rules. */
export function countedVotes(columns: VoteColumns, integrityBits: Uint8Array): Uint8Array {
  const counted = new Uint8Array(columns.length);
  for (let row = 0; row < columns.length; row++) counted[row] = columns.baseFlags[row] === 0 && integrityBits[row] === 0 ? 1 : 0;
  return counted;
}
