/** What the arena reports for operators (implemented over Prometheus in observability/). */
export interface ArenaMetrics {
  upstreamFirstToken(modelId: string, milliseconds: number): void;
  upstreamCompleted(modelId: string, milliseconds: number): void;
  upstreamFailed(modelId: string, kind: string): void;
  turnEnded(status: 'complete' | 'failed'): void;
  voteRecorded(choice: string): void;
  modelReplaced(modelId: string): void;
  /** An answer whose provider said it served another model than the catalogue's. */
  servedModelMismatch(modelId: string): void;
  streamOpened(): void;
  streamClosed(): void;
}

export const noMetrics: ArenaMetrics = {
  upstreamFirstToken: () => {},
  upstreamCompleted: () => {},
  upstreamFailed: () => {},
  turnEnded: () => {},
  voteRecorded: () => {},
  modelReplaced: () => {},
  servedModelMismatch: () => {},
  streamOpened: () => {},
  streamClosed: () => {},
};
