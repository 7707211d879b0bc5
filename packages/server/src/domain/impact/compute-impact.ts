import { runEcologits0_8_2 } from './ecologits-0-8-2';
import { runEcologits0_9_1 } from './ecologits-0-9-1';
import { ImpactError } from './impact-error';
import type { ImpactRun, RunInput } from './impact-run';
import type { EcologitsVersion, LlmImpactInput, LlmImpacts, PhasedImpact } from './impact-types';
import { checkElectricityMix, checkOutputTokens, checkRequestLatency, checkValueOrRange } from './validate-impact-input';
import { addRanges, isValueRange, type ValueRange } from './value-range';

const runOfVersion: Record<EcologitsVersion, (input: RunInput) => ImpactRun> = {
  '0.9.1': runEcologits0_9_1,
  '0.8.2': runEcologits0_8_2,
};

/**
 * Impacts of one LLM request with the EcoLogits method of the chosen version (docs/impact.md#formulas-091 to #ranges): energy,
 * GWP, ADPe, PE and (0.9.1) water, each a `{min, max}` range with its usage/embodied split.
 *
 * When the active or total parameter count is a range, the graph is evaluated twice, mins paired with
 * mins and maxes with maxes, and each field is `{min: run 1's min, max: run 2's max}` (docs/impact.md#ranges).
 * Zero output tokens give all-zero impacts. Doubles match the Python library bit for bit.
 *
 * @throws ImpactError on invalid input (`invalid_parameters`, `invalid_tokens`, `invalid_latency`,
 *   `invalid_datacenter`, `invalid_electricity_mix`); never returns `NaN`.
 */
export function computeLlmImpacts(input: LlmImpactInput): LlmImpacts {
  const run = Object.hasOwn(runOfVersion, input.version) ? runOfVersion[input.version] : undefined;
  if (run === undefined) throw new ImpactError('unknown_method', `unknown EcoLogits version '${input.version}'`);
  const active = checkValueOrRange(input.activeParamsB, 'active parameter count (billions)', 'invalid_parameters', 0);
  const total = checkValueOrRange(input.totalParamsB, 'total parameter count (billions)', 'invalid_parameters', 0, true);
  checkElectricityMix(input.mix, input.version === '0.9.1');
  const base = {
    outputTokens: checkOutputTokens(input.outputTokens),
    requestLatencySeconds: checkRequestLatency(input.requestLatencySeconds),
    mix: input.mix,
    pue: checkValueOrRange(input.pue, 'PUE', 'invalid_datacenter', 1),
    wue: checkValueOrRange(input.wue ?? 0, 'on-site WUE (L/kWh)', 'invalid_datacenter', 0),
  };
  const paired = isValueRange(input.activeParamsB) || isValueRange(input.totalParamsB);
  const pairs = paired
    ? [
        [active.min, total.min],
        [active.max, total.max],
      ]
    : [[active.min, total.min]];
  const runs = pairs.map(([activeParamsB, totalParamsB]) => run({ ...base, activeParamsB, totalParamsB } as RunInput));
  return mergeRuns(runs);
}

/** Combines one or two runs into the reported ranges: min of the first run, max of the last. */
function mergeRuns(runs: ImpactRun[]): LlmImpacts {
  const first = runs[0] as ImpactRun;
  const last = runs[runs.length - 1] as ImpactRun;
  const pick = (field: (run: ImpactRun) => ValueRange): ValueRange => ({ min: field(first).min, max: field(last).max });
  const phased = (key: 'gwp' | 'adpe' | 'pe'): PhasedImpact => {
    const usage = pick((run) => run.usage[key]);
    const embodied = pick((run) => run.embodied[key]);
    return { total: addRanges(usage, embodied), usage, embodied };
  };
  const hasWater = first.usage.wcf !== null;
  return {
    energyKwh: pick((run) => run.energy),
    gwpKgCo2eq: phased('gwp'),
    adpeKgSbeq: phased('adpe'),
    peMj: phased('pe'),
    wcfLitres: hasWater ? pick((run) => run.usage.wcf as ValueRange) : null,
    runs: runs.map((run) => run.details),
  };
}
