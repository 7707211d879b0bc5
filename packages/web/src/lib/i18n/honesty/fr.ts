/** French messages of the honesty area (the reference: every other language has the same keys). */
export const fr = {
  'honesty.thanks': 'Merci pour votre vote !',
  'honesty.energy_ratio': '{a} a consommé {ratio} fois l’énergie de {b}.',
  'honesty.energy_same': '{a} et {b} ont consommé à peu près autant d’énergie.',
  'honesty.energy_class': 'Classe énergétique',
  'honesty.energy_class_answer': 'Classe énergétique par réponse',
  'honesty.energy_class_value': 'Classe {class} (de A, la plus sobre, à E)',
  'honesty.energy_class_help':
    'A : le cinquième des modèles du catalogue qui consomme le moins pour une réponse ; E : le cinquième qui consomme le plus.',
  'honesty.votes_total': 'Votes : {n}',
  'honesty.votes_counted': '({n} comptés dans le classement)',
  'honesty.empty': 'Aucun modèle à classer pour l’instant :',
  'honesty.empty_link': 'votez dans l’arène !',
  'honesty.votes_needed': 'Votes : {n}, dont {counted} comptés dans le classement ({min} nécessaires).',
  'honesty.catching_up': 'Le classement lit les {total} votes enregistrés ({share} faits) : il s’affiche dans un instant.',
  'honesty.details': 'Détails',
} as const;
