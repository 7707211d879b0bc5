/** Why a ranking request cannot be answered as asked. */
export type RankingErrorCode = 'mle_does_not_exist' | 'style_counts_missing' | 'unknown_anchor_model' | 'invalid_option';

/** A domain error of the ranking: a request that the data cannot satisfy. */
export class RankingError extends Error {
  override readonly name = 'RankingError';
  constructor(
    readonly code: RankingErrorCode,
    message: string,
  ) {
    super(message);
  }
}
