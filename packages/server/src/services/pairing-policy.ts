import type { LeaderboardBody } from '@agora/contract';
import { type PairingMode, pairWeights } from '../domain/ranking';
import type { ArenaCatalogue } from './arena-catalogue';

/**
 * Which pairs the arena prefers to draw: uniform by default; `catch_up` favours models with few
 * battles, `most_informative` pairs whose intervals overlap most. Weights come from the latest
 * leaderboard only, never from the vote being cast, so the ranking stays unbiased.
 */
export class PairingPolicy {
  private weights: Map<string, number> | undefined;

  constructor(
    readonly mode: PairingMode,
    private readonly catalogue: ArenaCatalogue,
  ) {}

  /** Recomputes the pair weights from a fresh overall leaderboard. */
  update(overall: LeaderboardBody | undefined): void {
    if (this.mode === 'uniform') return;
    const rows = new Map((overall?.models ?? []).map((row) => [row.model, row]));
    const candidates = this.catalogue.candidates().map((candidate) => {
      const row = rows.get(candidate.id);
      return { model: candidate.id, nBattles: row?.n_battles ?? 0, ciLow: row?.ci_low, ciHigh: row?.ci_high };
    });
    this.weights = new Map(pairWeights(candidates, { mode: this.mode }).map((pair) => [pairKey(pair.modelA, pair.modelB), pair.weight]));
  }

  /** The weight of a pair for the draw, or undefined for uniform draws. */
  pairWeight(): ((first: string, second: string) => number) | undefined {
    const weights = this.weights;
    if (this.mode === 'uniform' || !weights) return undefined;
    // A model added since the last refresh has no weight yet: give it the largest, so it gets its first battles.
    const fallback = Math.max(0, ...weights.values());
    return (first, second) => weights.get(pairKey(first, second)) ?? fallback;
  }
}

const pairKey = (first: string, second: string) => (first < second ? `${first}\u0000${second}` : `${second}\u0000${first}`);
