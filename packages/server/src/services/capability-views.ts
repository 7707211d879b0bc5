import type { LeaderboardBody, LeaderboardQuery } from '@agora/contract';
import { CAPABILITY_CATEGORY_PREFIX, capabilityCategory, capabilityOfCategory } from '../domain/annotation/capabilities';

/*
 * Capability views (docs/ranking.md#capability-views): the labels ride in the vote columns as
 * categories of their own namespace (`capability:code`), so each label's view is fitted exactly as
 * a topic's. Here the API's `capability` parameter and the board's lists are put in their own terms.
 */

type CountList = LeaderboardBody['available']['categories'];

/** Topics and capability labels apart, from the counts of every category (labels without their prefix). */
export function splitCapabilityCounts(categories: CountList): { categories: CountList; capabilities: CountList } {
  const topics: CountList = [];
  const capabilities: CountList = [];
  for (const entry of categories) {
    const label = capabilityOfCategory(entry.value);
    if (label) capabilities.push({ value: label, n_votes: entry.n_votes });
    else if (!entry.value.startsWith(CAPABILITY_CATEGORY_PREFIX)) topics.push(entry);
  }
  return { categories: topics, capabilities };
}

/** The query of the view a `capability` asks for: its category in the capability namespace. */
export function capabilityAsCategory(query: LeaderboardQuery): LeaderboardQuery {
  const { capability, ...rest } = query;
  return capability ? { ...rest, category: capabilityCategory(capability) } : rest;
}

/** A board as the API shows it: a capability view names its label in `view.capability`, not as a category. */
export function presentCapabilityView(body: LeaderboardBody): LeaderboardBody {
  const label = body.view.category === null ? undefined : capabilityOfCategory(body.view.category);
  const view = label ? { ...body.view, category: null, capability: label } : { ...body.view, capability: body.view.capability ?? null };
  // Snapshots from before the split list every category together: split them on the way out.
  const available = body.available.capabilities
    ? body.available
    : { ...body.available, ...splitCapabilityCounts(body.available.categories) };
  // A view below the minimum has no snapshot: its count comes from the board's list, as a topic's does.
  const listed = label && body.models.length === 0 ? available.capabilities?.find((entry) => entry.value === label) : undefined;
  return { ...body, view, available, n_votes: listed?.n_votes ?? body.n_votes };
}
