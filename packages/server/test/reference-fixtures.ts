import { fileURLToPath } from 'node:url';

/**
 * The reference fixtures copied into the repository (test/fixtures/reference/README.md: provenance
 * and licence): the ranking oracle's vote files and expected fits, and the EcoLogits vectors.
 */

/** The ranking oracle's folder, with its trailing slash: `<stem>.jsonl` and `<stem>.expected.json`. */
export const RANKING_FIXTURES = fileURLToPath(new URL('./fixtures/reference/ranking/', import.meta.url));

/** The weighted and clustered fits' reference (docs/ranking.md#weights-and-clusters): its numpy script and expected file. */
export const WEIGHTED_RANKING_FIXTURES = fileURLToPath(new URL('./fixtures/reference/ranking-weighted/', import.meta.url));

/** The EcoLogits development vectors (0.9.1 and 0.8.2). */
export const IMPACT_VECTORS = fileURLToPath(new URL('./fixtures/reference/impact/vectors-dev.json', import.meta.url));

/** The board weighted to the population (docs/ranking.md#population-board): raking and the weighted fit's numpy reference. */
export const POPULATION_RANKING_FIXTURES = fileURLToPath(new URL('./fixtures/reference/ranking-population/', import.meta.url));

/** Rank influence (docs/ranking.md#rank-influence): votes with visitors, and each visitor's exact refit by numpy. */
export const INFLUENCE_RANKING_FIXTURES = fileURLToPath(new URL('./fixtures/reference/ranking-influence/', import.meta.url));
/** The duplicate-prompt rules' numpy reference (docs/ranking.md#duplicate-prompts). */
export const DEDUP_RANKING_FIXTURES = fileURLToPath(new URL('./fixtures/reference/ranking-dedup/', import.meta.url));
