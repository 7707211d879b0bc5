import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_CAPABILITIES, type RuleCapability } from '../src/domain/annotation/capabilities';
import { ruleCapabilities } from '../src/domain/annotation/capability-rules';

/*
 * The rule labels against a hand-labelled set of our own (fixtures/capabilities/README.md): per label,
 * precision, recall and Cohen's κ, printed as a table and held above a floor. The floors: κ ≥ 0.8 for
 * code and math (Landis and Koch's "almost perfect" agreement begins at 0.81; below it a view would
 * mix in enough off-topic votes to matter), and exact agreement for multi-turn and long query, which
 * are definitions rather than judgements.
 */

interface LabelledItem {
  id: string;
  language: string;
  prompts: string[];
  labels: string[];
}

const items = (
  JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/capabilities/hand-labelled.json'), 'utf8')) as { items: LabelledItem[] }
).items;

const FLOORS: Record<RuleCapability, number> = { code: 0.8, math: 0.8, multi_turn: 1, long_query: 1 };

interface Agreement {
  label: RuleCapability;
  positives: number;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  kappa: number;
}

/** Cohen's κ of two binary raters from their 2×2 table: (observed − chance) / (1 − chance). */
export function cohensKappa(tp: number, fp: number, fn: number, tn: number): number {
  const n = tp + fp + fn + tn;
  const observed = (tp + tn) / n;
  const chance = ((tp + fp) / n) * ((tp + fn) / n) + ((fn + tn) / n) * ((fp + tn) / n);
  return chance === 1 ? 1 : (observed - chance) / (1 - chance);
}

function agreement(label: RuleCapability): Agreement & { misses: string[] } {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  const misses: string[] = [];
  for (const item of items) {
    const truth = item.labels.includes(label);
    const ruled = ruleCapabilities(item.prompts).has(label);
    if (truth && ruled) tp++;
    else if (truth === ruled) tn++;
    else {
      if (ruled) fp++;
      else fn++;
      misses.push(`${ruled ? '+' : '-'}${item.id}`);
    }
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  return { label, positives: tp + fn, tp, fp, fn, precision, recall, kappa: cohensKappa(tp, fp, fn, tn), misses };
}

describe('capability rules against the hand-labelled set', () => {
  it('holds 60 prompts or so in each of the five languages', () => {
    const languages = new Map<string, number>();
    for (const item of items) languages.set(item.language, (languages.get(item.language) ?? 0) + 1);
    expect([...languages.keys()].sort()).toEqual(['da', 'en', 'fr', 'lt', 'sv']);
    for (const count of languages.values()) expect(count).toBeGreaterThanOrEqual(12);
  });

  it("reports each rule label's precision, recall and κ, each above its floor", () => {
    const rows = RULE_CAPABILITIES.map(agreement);
    const table = rows.map(
      (row) =>
        `| ${row.label} | ${row.positives} | ${row.tp} | ${row.fp} | ${row.fn} | ${row.precision.toFixed(2)} | ${row.recall.toFixed(2)} | ${row.kappa.toFixed(2)} | ${row.misses.join(' ') || '–'} |`,
    );
    console.log(['| label | positives | TP | FP | FN | precision | recall | κ | disagreements |', ...table].join('\n'));
    for (const row of rows) expect(row.kappa, `${row.label}: ${row.misses.join(' ')}`).toBeGreaterThanOrEqual(FLOORS[row.label]);
  });

  it('computes κ as textbook examples give it', () => {
    // 2×2 with 20/5/10/15 (n=50): po = 0.7, pe = 0.5·0.6 + 0.5·0.4 = 0.5 → κ = 0.4.
    expect(cohensKappa(20, 5, 10, 15)).toBeCloseTo(0.4, 10);
    expect(cohensKappa(10, 0, 0, 10)).toBe(1);
  });
});
