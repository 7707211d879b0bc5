/** French messages of the turn-verdicts area (the verdict asked after each turn of a duel; the reference: every other language has the same keys). */
export const fr = {
  'verdict.legend': 'Sur ce tour, quelle réponse préférez-vous ? (facultatif)',
  'verdict.a_better': 'A est meilleure',
  'verdict.b_better': 'B est meilleure',
  'verdict.both_good': 'Les deux sont bonnes',
  'verdict.both_bad': 'Les deux sont mauvaises',
  'verdict.saved': 'Avis sur le tour {turn} enregistré',
  'verdict.failed': 'Votre avis n’a pas été enregistré : réessayez.',
  'verdict.hint': 'Le vote final, en bas, reste nécessaire pour découvrir les modèles.',
};
