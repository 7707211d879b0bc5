import { describe, expect, it } from 'vitest';
import { parseCatalogue } from '../config/catalogue';
import { conversationImpact } from '../domain/impact';
import { ArenaCatalogue } from './arena-catalogue';
import { createRevealImpactEstimator } from './reveal-impact';

const catalogue = new ArenaCatalogue(
  parseCatalogue(
    `models:
  - { id: sized, name: Sized, organisation: o, license: MIT, open_weights: true, arch: dense, params_b: 70, provider: { type: openai-compatible, base_url: 'http://127.0.0.1:1/v1', model: sized } }
  - { id: moe, name: MoE, organisation: o, license: MIT, open_weights: true, arch: moe, params_b: 120, provider: { type: openai-compatible, base_url: 'http://127.0.0.1:1/v1', model: moe } }
  - { id: secret, name: Secret, organisation: o, license: proprietary, open_weights: false, arch: dense, params_b: null, provider: { type: openai-compatible, base_url: 'http://127.0.0.1:1/v1', model: secret } }
`,
    'models.yaml',
    {},
  ),
);

describe('the reveal impact estimator', () => {
  const estimate = createRevealImpactEstimator(catalogue, { method: '0.9.1', zone: 'FRA' });

  it("gives, answer after answer, what the impact module gives for the model's facts", () => {
    for (const [modelId, facts] of [
      ['sized', { params_b: 70, active_params_b: null, arch: 'dense' }],
      ['moe', { params_b: 120, active_params_b: null, arch: 'moe' }],
    ] as const) {
      for (const answers of [
        [{ outputTokens: 200, latencySeconds: 6.5 }],
        [
          { outputTokens: 12, latencySeconds: null },
          { outputTokens: 900, latencySeconds: 30.2 },
        ],
      ]) {
        const { comparia: _comparia, ...expected } = conversationImpact({
          model: facts,
          outputTokensPerMessage: answers.map((answer) => answer.outputTokens),
          latencySecondsPerMessage: answers.map((answer) => answer.latencySeconds),
          method: '0.9.1',
          zone: 'FRA',
          locale: 'en',
        });
        expect(estimate(modelId, answers, 'en')).toEqual(expected);
      }
    }
    expect(estimate('sized', [{ outputTokens: 400, latencySeconds: 9 }], 'fr')!.energy_wh.min).toBeGreaterThan(
      estimate('sized', [{ outputTokens: 200, latencySeconds: 9 }], 'fr')!.energy_wh.min,
    );
  });

  it('shows no impact for a model of unknown size, every time', () => {
    expect(estimate('secret', [{ outputTokens: 200, latencySeconds: 6.5 }], 'fr')).toBeUndefined();
    expect(estimate('secret', [{ outputTokens: 10, latencySeconds: 1 }], 'fr')).toBeUndefined();
  });

  it('still refuses what the impact module refuses (a negative token count)', () => {
    expect(() => estimate('sized', [{ outputTokens: -1, latencySeconds: 1 }], 'fr')).toThrow(/output tokens/);
  });
});
