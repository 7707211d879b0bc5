/**
 * What a model's answers may be used for, as the exports say it in a column and in the card. The
 * seed's rule: answers of proprietary models may be used to evaluate, not to train (their vendors'
 * terms forbid training competing models on them). Open-weights models under a licence known to
 * allow it may be trained on; other open licences (community licences with use policies) must be
 * read before training. An operator can state a model's terms in the catalogue (`training_use`).
 */
export const TRAINING_USES = ['allowed', 'check_licence', 'evaluation_only'] as const;
export type TrainingUse = (typeof TRAINING_USES)[number];

/** Licences that put no condition on using the model's outputs for training. */
const PERMISSIVE = [
  /^apache(?:[- ]?licen[cs]e)?[- ]?(?:2(?:\.0)?)?$/i,
  /^mit(?: licen[cs]e)?$/i,
  /^bsd(?:[- ]\d-clause)?$/i,
  /^isc$/i,
  /^mpl[- ]?2(?:\.0)?$/i,
  /^cc[- ]?by(?:[- ]4\.0)?$/i,
  /^cc0(?:[- ]1\.0)?$/i,
  /^unlicen[cs]e$/i,
];

export function trainingUseOf(model: { license: string; openWeights: boolean; trainingUse?: TrainingUse | undefined }): TrainingUse {
  if (model.trainingUse) return model.trainingUse;
  if (!model.openWeights) return 'evaluation_only';
  return PERMISSIVE.some((licence) => licence.test(model.license.trim())) ? 'allowed' : 'check_licence';
}

/**
 * The kind of licence a visitor reads on a model's card: no weights is proprietary, open weights
 * under a licence of {@link PERMISSIVE} permissive, any other open licence one with its own conditions.
 * The licence alone decides (an operator's `training_use` is about the datasets, not the licence).
 */
export function licenseKindOf(model: { license: string; openWeights: boolean }): 'permissive' | 'conditions' | 'proprietary' {
  if (!model.openWeights) return 'proprietary';
  return PERMISSIVE.some((licence) => licence.test(model.license.trim())) ? 'permissive' : 'conditions';
}

/** Of a row with answers of several models (a dpo pair), the most restrictive use. */
export function mostRestrictive(uses: readonly TrainingUse[]): TrainingUse {
  return uses.reduce<TrainingUse>((worst, use) => (TRAINING_USES.indexOf(use) > TRAINING_USES.indexOf(worst) ? use : worst), 'allowed');
}
