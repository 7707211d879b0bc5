/**
 * How many more votes would separate two models whose 95 % intervals overlap
 * (docs/ranking.md#rank-influence). Approximation: a model's interval half-width scales as 1/√n on
 * the information it rests on, with the ratings as they are now (the gap does not move). Two
 * ways to add votes: between the two models only (each one's n is its own votes, both gain k), or
 * spread as the arena draws (every half-width shrinks as 1/√N with N the board's votes).
 */

/** One model as the planner sees it. */
export interface PlannedModel {
  model: string;
  rating: number;
  halfWidth: number;
  votes: number;
}

export interface SeparationPlan {
  higher: string;
  lower: string;
  gapPoints: number;
  /** Sum of the two half-widths: the intervals overlap while the gap is below it. */
  overlapPoints: number;
  /** More votes between the two, or over the whole board as the arena draws them; null when the gap is 0. */
  votesBetween: number | null;
  votesSpread: number | null;
}

/** Whether the two intervals are apart, given k more votes between the pair. */
function apartWith(higher: PlannedModel, lower: PlannedModel, gap: number, k: number): boolean {
  const width = (model: PlannedModel) => model.halfWidth * Math.sqrt(model.votes / (model.votes + k));
  return width(higher) + width(lower) < gap;
}

/** The fewest votes between the pair that separate it (doubling, then bisection: the widths fall with k). */
function votesBetween(higher: PlannedModel, lower: PlannedModel, gap: number): number | null {
  if (!(gap > 0) || higher.votes <= 0 || lower.votes <= 0) return null;
  if (apartWith(higher, lower, gap, 0)) return 0;
  let high = 1;
  while (!apartWith(higher, lower, gap, high)) {
    high *= 2;
    if (high > 2 ** 40) return null;
  }
  let low = high / 2;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (apartWith(higher, lower, gap, middle)) high = middle;
    else low = middle;
  }
  return high;
}

/** The plan of one pair; `boardVotes` is N, the votes of the whole board. */
export function planSeparation(first: PlannedModel, second: PlannedModel, boardVotes: number): SeparationPlan {
  const [higher, lower] = first.rating >= second.rating ? [first, second] : [second, first];
  const gap = higher.rating - lower.rating;
  const overlap = higher.halfWidth + lower.halfWidth;
  const ratio = overlap / gap;
  return {
    higher: higher.model,
    lower: lower.model,
    gapPoints: gap,
    overlapPoints: overlap,
    votesBetween: votesBetween(higher, lower, gap),
    votesSpread: gap > 0 && boardVotes > 0 ? Math.max(0, Math.ceil(boardVotes * (ratio * ratio - 1))) : null,
  };
}

/** Plans for each pair of neighbours (by rating) whose intervals overlap. */
export function planOverlappingNeighbours(models: readonly PlannedModel[], boardVotes: number): SeparationPlan[] {
  const ordered = [...models].sort((x, y) => y.rating - x.rating);
  const plans: SeparationPlan[] = [];
  for (let index = 1; index < ordered.length; index++) {
    const higher = ordered[index - 1]!;
    const lower = ordered[index]!;
    if (higher.rating - lower.rating < higher.halfWidth + lower.halfWidth) plans.push(planSeparation(higher, lower, boardVotes));
  }
  return plans;
}
