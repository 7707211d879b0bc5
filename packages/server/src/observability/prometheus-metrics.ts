import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ArenaMetrics } from '../services/ports/arena-metrics';

const latencyBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 60, 120];

/** Prometheus metrics: requests, duel outcomes, upstream time to first token, duration and errors per model, open streams. */
export class PrometheusMetrics implements ArenaMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({
    name: 'agora_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [this.registry],
  });
  private readonly firstToken = new Histogram({
    name: 'agora_upstream_first_token_seconds',
    help: 'Upstream time to first token per model',
    labelNames: ['model'],
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  private readonly duration = new Histogram({
    name: 'agora_upstream_duration_seconds',
    help: 'Upstream answer duration per model',
    labelNames: ['model'],
    buckets: latencyBuckets,
    registers: [this.registry],
  });
  private readonly upstreamErrors = new Counter({
    name: 'agora_upstream_errors_total',
    help: 'Upstream failures per model and kind',
    labelNames: ['model', 'kind'],
    registers: [this.registry],
  });
  private readonly replacements = new Counter({
    name: 'agora_model_replacements_total',
    help: 'Models replaced after failing before their first token',
    labelNames: ['model'],
    registers: [this.registry],
  });
  private readonly servedModelMismatches = new Counter({
    name: 'agora_served_model_mismatches_total',
    help: 'Answers whose provider said it served another model than the catalogue names',
    labelNames: ['model'],
    registers: [this.registry],
  });
  private readonly turns = new Counter({
    name: 'agora_turns_total',
    help: 'Duel turns by outcome',
    labelNames: ['status'],
    registers: [this.registry],
  });
  private readonly votes = new Counter({
    name: 'agora_votes_total',
    help: 'Votes by choice',
    labelNames: ['choice'],
    registers: [this.registry],
  });
  private readonly postprocessed = new Counter({
    name: 'agora_postprocess_conversations_total',
    help: 'Conversations post-processed, by outcome (done, flagged among done, retrying, failed)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  private readonly openStreams = new Gauge({ name: 'agora_open_streams', help: 'Open SSE connections', registers: [this.registry] });

  /** `instance`: a label on every series, so that the figures of several instances sharing a store stay apart. */
  constructor(instance?: string) {
    if (instance !== undefined) this.registry.setDefaultLabels({ instance });
    collectDefaultMetrics({ register: this.registry, prefix: 'agora_' });
  }

  upstreamFirstToken(modelId: string, milliseconds: number): void {
    this.firstToken.observe({ model: modelId }, milliseconds / 1000);
  }
  upstreamCompleted(modelId: string, milliseconds: number): void {
    this.duration.observe({ model: modelId }, milliseconds / 1000);
  }
  upstreamFailed(modelId: string, kind: string): void {
    this.upstreamErrors.inc({ model: modelId, kind });
  }
  modelReplaced(modelId: string): void {
    this.replacements.inc({ model: modelId });
  }
  servedModelMismatch(modelId: string): void {
    this.servedModelMismatches.inc({ model: modelId });
  }
  turnEnded(status: 'complete' | 'failed'): void {
    this.turns.inc({ status });
  }
  voteRecorded(choice: string): void {
    this.votes.inc({ choice });
  }
  postprocessPass(report: { done: number; flagged: number; retrying: number; failed: number }): void {
    for (const outcome of ['done', 'flagged', 'retrying', 'failed'] as const)
      if (report[outcome] > 0) this.postprocessed.inc({ outcome }, report[outcome]);
  }
  streamOpened(): void {
    this.openStreams.inc();
  }
  streamClosed(): void {
    this.openStreams.dec();
  }
}
