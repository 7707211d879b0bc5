import type { Store } from '../../db/unit-of-work';
import type { ModelRegistry } from '../../providers/registry';
import type { ArenaCatalogue } from '../arena-catalogue';
import type { ArenaMetrics } from '../ports/arena-metrics';
import type { PairingPolicy } from '../pairing-policy';
import type { ProofOfWork } from '../ports/proof-of-work';
import type { RequestLimiter } from '../ports/request-limiter';
import type { RevealImpactEstimator } from '../reveal-impact';
import type { Runtime } from '../ports/runtime';
import type { UpstreamLogEntry } from './turn-runner';

export interface DuelServiceDependencies {
  store: Store;
  catalogue: ArenaCatalogue;
  registry: ModelRegistry;
  metrics: ArenaMetrics;
  runtime: Runtime;
  settings: {
    maxTurns: number;
    upstreamRetries: number;
    replayTtlMs: number;
    /** Longer than any turn can last (every attempt of the slowest model, and a margin): a turn still streaming after it was cut by a crash. */
    turnDeadlineMs: number;
    /**
     * Several instances share the store (docs/decisions/0005-several-instances.md): live frames go
     * through the store so that any instance can stream any turn, and vote contexts are read from
     * the store, never from this process's memory.
     */
    severalInstances?: boolean;
  };
  onTurnStored?: (duelId: string, status: 'complete' | 'failed') => void;
  onVoteRecorded?: (duelId: string) => void;
  /** Whether a recorded vote counts in the ranking as far as can be judged now (services/vote-integrity.ts); counted without it. */
  judgeVote?: (vote: { duelId: string; visitorHash: string }) => Promise<boolean>;
  estimateImpact?: RevealImpactEstimator;
  /** Pair weights for the draw; uniform without it. */
  pairing?: PairingPolicy;
  /** Counts the characters each requester sends to models marked `expensive`; no such limit without it. */
  limiter?: RequestLimiter;
  /** Asks for a solved challenge before each new duel; none without it. */
  proofOfWork?: ProofOfWork;
  logError: (message: string, error: unknown) => void;
  logUpstream?: (entry: UpstreamLogEntry) => void;
}
