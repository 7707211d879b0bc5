/** The parts of a post-processing page, in the order they run. */
export const POSTPROCESS_STAGES = ['read', 'rules', 'clusters', 'annotate', 'write'] as const;
export type PostprocessStage = (typeof POSTPROCESS_STAGES)[number];

/**
 * Where a sweep's time goes, stage by stage, summed over its pages (wall time on the event loop:
 * `rules` is the wait for the rules layer's threads, which detect languages, run the personal-data
 * and capability rules and sign the prompts). `agora postprocess` prints it; the bench reads it.
 */
export class StageTimes {
  readonly seconds: Record<PostprocessStage, number> = { read: 0, rules: 0, clusters: 0, annotate: 0, write: 0 };

  async time<T>(stage: PostprocessStage, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.seconds[stage] += (performance.now() - started) / 1000;
    }
  }

  /** `read 1.2 s, rules 3.4 s, …` */
  toString(): string {
    return POSTPROCESS_STAGES.map((stage) => `${stage} ${this.seconds[stage].toFixed(2)} s`).join(', ');
  }
}
