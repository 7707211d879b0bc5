import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { IMPACT_VECTORS } from '../reference-fixtures';

const agora = fileURLToPath(new URL('../../../../bin/agora', import.meta.url));
const vectors = JSON.parse(readFileSync(IMPACT_VECTORS, 'utf8')) as {
  cases: Array<{ id: string; expected: Record<string, { min: number; max: number }> }>;
};
const expectedOf = (id: string) => vectors.cases.find((testCase) => testCase.id === id)?.expected ?? {};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function runImpact(...args: string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await promisify(execFile)(agora, ['impact', ...args], { encoding: 'utf8' });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

function expectRangeClose(actual: { min: number; max: number }, expected: { min: number; max: number } | undefined) {
  expect(expected).toBeDefined();
  for (const bound of ['min', 'max'] as const) {
    const reference = (expected as { min: number; max: number })[bound];
    expect(Math.abs(actual[bound] - reference) / reference).toBeLessThanOrEqual(1e-9);
  }
}

// Each case spawns the real command line (about 1.5 s each).
describe('agora impact', () => {
  it('prints one JSON object for EcoLogits 0.9.1 (default deployment: WOR, PUE 1.2, WUE 0)', async () => {
    const outcome = await runImpact('--params', '8', '--tokens', '500');
    expect(outcome.code).toBe(0);
    expect(outcome.stdout.trim().split('\n')).toHaveLength(1);
    const printed = JSON.parse(outcome.stdout);
    const expected = expectedOf('v091-dense-small-wor');
    expectRangeClose(printed.energy_kwh, expected.energy);
    expectRangeClose(printed.gwp_kgco2eq, expected.gwp);
    expectRangeClose(printed.adpe_kgsbeq, expected.adpe);
    expectRangeClose(printed.pe_mj, expected.pe);
    expectRangeClose(printed.wcf_l, expected.wcf);
    expect(printed).toMatchObject({ method: 'ecologits-0.9.1', zone: 'WOR', pue: 1.2, wue: 0 });
  });

  it('runs 0.8.2 for an MoE, with null water', async () => {
    const outcome = await runImpact('--params', '671', '--active', '37', '--tokens', '1000', '--method', '0.8.2', '--zone', 'wor');
    expect(outcome.code).toBe(0);
    const printed = JSON.parse(outcome.stdout);
    expectRangeClose(printed.energy_kwh, expectedOf('v082-moe-deepseek-wor').energy);
    expectRangeClose(printed.gwp_kgco2eq, expectedOf('v082-moe-deepseek-wor').gwp);
    expect(printed.wcf_l).toBeNull();
    expect(printed.method).toBe('ecologits-0.8.2');
  });

  it('accepts ranges, PUE/WUE and a latency cap, and the compar:IA switch', async () => {
    const flags = ['--params', '300', '--active', '30-90', '--tokens', '800', '--pue', '1.09-1.14', '--wue', '0.13-0.999'];
    const ranged = JSON.parse((await runImpact(...flags, '--latency-s', '12')).stdout);
    expect(ranged.energy_kwh.min).toBeLessThan(ranged.energy_kwh.max);
    expect(ranged.runs).toHaveLength(2);
    const comparia = JSON.parse((await runImpact('--params', '70', '--tokens', '1000000', '--compat', 'comparia')).stdout);
    expect(((comparia.energy_kwh.min + comparia.energy_kwh.max) / 2) * 1000).toBe(12468.733333333334);
    expect(comparia).toMatchObject({ method: 'comparia-compat', zone: 'WOR', pue: 1.2, wcf_l: null });
  });

  it.each([
    [['--params', '8', '--tokens', '-5'], /--tokens/],
    [['--params', '8', '--tokens', '5', '--bogus'], /unknown option/],
    [['--tokens', '5'], /--params is required/],
    [['--params', '8', '--tokens', '5', '--zone', 'XXX'], /zone 'XXX'/],
    [['--params', 'abc', '--tokens', '5'], /MIN-MAX/],
    [['--params', '8', '--tokens', '5', '--compat', 'comparia', '--method', '0.9.1'], /--compat comparia/],
  ])('exits with code 2 and one line on a bad flag: %j', async (args, message) => {
    const outcome = await runImpact(...args);
    expect(outcome.code).toBe(2);
    expect(outcome.stdout).toBe('');
    expect(outcome.stderr.trim().split('\n')).toHaveLength(1);
    expect(outcome.stderr).toMatch(message);
  });
});
