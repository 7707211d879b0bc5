import type { Store } from '../db/unit-of-work';

/** What operators ask of a running arena: health and the per-model error view. */
export class OperationsService {
  private healthCheck: Promise<boolean> | undefined;

  constructor(
    private readonly store: Store,
    private readonly now: () => Date,
  ) {}

  /**
   * Forgets the visitor and address hashes of duels older than `days` (docs/operations.md#retention).
   * Exports already publish only salted ids; this limits what the store itself keeps.
   */
  async purgeVisitorTraces(days: number): Promise<{ duels: number; votes: number }> {
    const before = new Date(this.now().getTime() - days * 86_400_000).toISOString();
    // Survey answers are keyed by the visitor hash: forgotten on the same schedule.
    await this.store.surveyAnswers.purgeBefore(before);
    return this.store.duels.purgeVisitorTraces(before);
  }

  /**
   * True when the store answers. `/healthz` has no rate limit (a proxy's or orchestrator's probe
   * must never be refused); instead, requests that arrive while a check runs share its answer, so
   * that a flood of them is at most one store query at a time.
   */
  isHealthy(): Promise<boolean> {
    this.healthCheck ??= this.store
      .ping()
      .then(
        () => true,
        () => false,
      )
      .finally(() => (this.healthCheck = undefined));
    return this.healthCheck;
  }

  /** Upstream failures per model and kind over the last `hours`. */
  async upstreamErrors(hours: number): Promise<{ since: string; models: { model: string; kind: string; count: number }[] }> {
    const since = new Date(this.now().getTime() - hours * 3600_000).toISOString();
    const rows = await this.store.duels.countUpstreamErrorsByModel(since);
    return { since, models: rows.map((row) => ({ model: row.modelId, kind: row.kind, count: row.count })) };
  }

  /**
   * Answers whose provider said it served another model than the catalogue's, over the last `hours`:
   * a router's fallback or a provider's substitution, whose votes stay out of the leaderboard.
   */
  async servedModelMismatches(hours: number): Promise<{ since: string; models: { model: string; served: string; answers: number }[] }> {
    const since = new Date(this.now().getTime() - hours * 3600_000).toISOString();
    const rows = await this.store.duels.countServedModelMismatches(since);
    return { since, models: rows.map((row) => ({ model: row.modelId, served: row.servedModel, answers: row.count })) };
  }
}
