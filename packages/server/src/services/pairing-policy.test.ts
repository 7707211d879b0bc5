import type { LeaderboardBody, LeaderboardRow } from '@agora/contract';
import { describe, expect, it } from 'vitest';
import { parseCatalogue } from '../config/catalogue';
import { ArenaCatalogue } from './arena-catalogue';
import { PairingPolicy } from './pairing-policy';

const catalogue = new ArenaCatalogue(
  parseCatalogue(
    `models:\n${['veteran', 'regular', 'newcomer']
      .map(
        (id) =>
          `  - { id: ${id}, name: ${id}, organisation: o, license: MIT, open_weights: true, arch: dense, params_b: 7, provider: { type: openai-compatible, base_url: 'http://127.0.0.1:1/v1', model: ${id} } }`,
      )
      .join('\n')}\n`,
    'models.yaml',
    {},
  ),
);

const row = (model: string, nBattles: number, ciLow: number, ciHigh: number) =>
  ({ model, n_battles: nBattles, ci_low: ciLow, ci_high: ciHigh }) as LeaderboardRow;
const overall = { models: [row('veteran', 5000, 1090, 1110), row('regular', 500, 1000, 1040)] } as LeaderboardBody;

describe('PairingPolicy', () => {
  it('draws uniformly by default', () => {
    const policy = new PairingPolicy('uniform', catalogue);
    policy.update(overall);
    expect(policy.pairWeight()).toBeUndefined();
  });

  it('catch-up favours models with few battles', () => {
    const policy = new PairingPolicy('catch_up', catalogue);
    expect(policy.pairWeight()).toBeUndefined();
    policy.update(overall);
    const weight = policy.pairWeight()!;
    expect(weight('newcomer', 'regular')).toBeGreaterThan(weight('veteran', 'regular'));
    expect(weight('regular', 'newcomer')).toBe(weight('newcomer', 'regular'));
  });

  it('most-informative favours pairs whose intervals overlap, and models without one', () => {
    const policy = new PairingPolicy('most_informative', catalogue);
    policy.update({ models: [row('veteran', 100, 1000, 1100), row('regular', 100, 1050, 1150)] } as LeaderboardBody);
    const overlapping = policy.pairWeight()!;
    policy.update({ models: [row('veteran', 100, 1000, 1020), row('regular', 100, 1200, 1220)] } as LeaderboardBody);
    const apart = policy.pairWeight()!;
    expect(overlapping('veteran', 'regular')).toBeGreaterThan(apart('veteran', 'regular'));
    expect(apart('newcomer', 'regular')).toBeGreaterThan(apart('veteran', 'regular'));
  });
});
