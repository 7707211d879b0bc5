import type { LeaderboardBody } from '@agora/contract';
import { categoriesOf, type VoteColumns } from '../domain/ranking/vote-columns';
import { keptToOwnView, ownViewModeMask, type ViewDefinition, viewKey } from '../domain/ranking/leaderboard-views';
import { CAPABILITY_CATEGORY_PREFIX } from '../domain/annotation/capabilities';
import { splitCapabilityCounts } from './capability-views';

/*
 * Which views a refresh computes: the main board, then each language, mode and topic with enough
 * counted votes, each plain and style-controlled.
 */

/** The lists of languages, modes and topics a board offers, with their votes. */
export type Available = LeaderboardBody['available'];

const styles = ['plain', 'controlled'] as const;

/** The counted votes not kept to their own mode's view (arena custom-mode votes): those of the main board, the languages and the topics. */
export function mainBoardVotes(columns: VoteColumns, counted: Uint8Array, ownViewModes: readonly string[]): Uint8Array {
  const ownView = ownViewModeMask(columns.modes, ownViewModes);
  return counted.map((flag, row) => (flag === 1 && !keptToOwnView(columns, ownView, row) ? 1 : 0));
}

/**
 * Votes per language, mode and category among the counted ones, each with enough votes for a view
 * (most first): every counted vote for its mode, those of the main board for languages and topics.
 */
export function availableViews(columns: VoteColumns, counted: Uint8Array, onMainBoard: Uint8Array, minVotes: number): Available {
  const languages = new Map<string, number>();
  const modes = new Map<string, number>();
  const categories = new Map<string, number>();
  const add = (counts: Map<string, number>, value: string) => counts.set(value, (counts.get(value) ?? 0) + 1);
  for (let row = 0; row < columns.length; row++) {
    if (counted[row] !== 1) continue;
    add(modes, columns.modes[columns.mode[row]!]!);
    if (onMainBoard[row] !== 1) continue;
    if (columns.language[row]! >= 0) add(languages, columns.languages[columns.language[row]!]!);
    // A conversation on several topics counts in each of their views.
    for (const category of categoriesOf(columns, row)) add(categories, columns.categories[category]!);
  }
  const enough = (counts: Map<string, number>) =>
    [...counts]
      .filter(([, n]) => n >= minVotes)
      // Most votes first; ties by name, whatever order the votes were read in.
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([value, n]) => ({ value, n_votes: n }));
  // Capability labels ride as categories (capability-views.ts), listed apart.
  return { languages: enough(languages), modes: enough(modes), ...splitCapabilityCounts(enough(categories)) };
}

export const countOf = (flags: Uint8Array): number => flags.reduce((sum, flag) => sum + flag, 0);

/** The views to fit, in order: overall (when it has enough votes), languages, modes, topics. */
export function viewDefinitions(overall: boolean, available: Available, ownViewModes: readonly string[]): ViewDefinition[] {
  const filters = [
    ...(overall ? [{ language: null, mode: null, category: null }] : []),
    ...available.languages.map((entry) => ({ language: entry.value, mode: null, category: null })),
    ...available.modes.map((entry) => ({ language: null, mode: entry.value, category: null })),
    ...available.categories.map((entry) => ({ language: null, mode: null, category: entry.value })),
    ...(available.capabilities ?? []).map((entry) => ({
      language: null,
      mode: null,
      category: `${CAPABILITY_CATEGORY_PREFIX}${entry.value}`,
    })),
  ];
  return filters.flatMap((filter) => styles.map((style) => ({ key: viewKey({ style, ...filter }), style, ...filter, ownViewModes })));
}
