import type { CalibrationRecord } from './maxx-calibration';
import type { PairOutcome, PanelOutcome } from './maxx-rules';

/**
 * The recorded outcome of one item of the optimised set, in the domain's words: the store keeps it,
 * the card and the files are written from it alone.
 */

/** What the card counts of one item's judging and gating. */
export interface MaxxItemStats {
  /** One entry per original reply and judge, judged in both orders: its model, whether the orders agreed, whether the optimal won. */
  pairs: { model: string; judge?: string; consistent: boolean; won: boolean }[];
  /** One entry per original reply: the panel's outcome and each judge's (panel order), for the inter-judge agreement. */
  panels?: { model: string; outcome: PanelOutcome; judges: PairOutcome[] }[];
  critic: { calls: number; passes: number };
  /** With `--calibrate`: the judge on the two original replies against the visitor's preference. */
  calibration?: CalibrationRecord;
  /** Answers that ended without a normal stop (cut on length, filtered) and were asked again with a larger budget. */
  incompleteAnswers?: number;
}

export interface MaxxItemRecord {
  itemKey: string;
  runKey: string;
  subset: string;
  sourceId: string;
  language: string;
  status: 'kept' | 'dropped';
  reason: string | null;
  row: Record<string, unknown> | null;
  stats: MaxxItemStats;
  createdAt: string;
}

/**
 * Drops whose cause is the provider, not the content: an answer that was not the JSON asked for, an
 * answer cut before its end. A later run processes these items again (the content-related drops —
 * lost, critic rejected, defect not fixed — stay).
 */
export const PROVIDER_DROP_REASONS = ['malformed structured output', 'truncated'] as const;

export function isProviderDrop(record: Pick<MaxxItemRecord, 'status' | 'reason'>): boolean {
  return record.status === 'dropped' && (PROVIDER_DROP_REASONS as readonly (string | null)[]).includes(record.reason);
}
