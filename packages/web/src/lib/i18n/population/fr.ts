/** French messages of the population survey and weighted board: the reference keys. */
export const fr = {
  'survey.title': 'Trois questions, une fois',
  'survey.intro':
    "Facultatif et anonyme : vos réponses servent seulement à pondérer le classement pour qu'il ressemble à la population. Elles partent avec vos duels si vous les effacez.",
  'survey.send': 'Envoyer',
  'survey.skip': 'Passer',
  'survey.incomplete': 'Répondez à chaque question, ou passez.',
  'survey.thanks': 'Merci, ce questionnaire ne reviendra pas.',
  'survey.failed': "Vos réponses n'ont pas pu être enregistrées. Réessayez plus tard.",
  'population.toggle': 'Classement pondéré selon la population',
  'population.explain':
    "Les votes des visiteurs qui ont répondu au questionnaire, pondérés pour que leurs âges, genres et diplômes aient le poids qu'ils ont dans la population (source : {source}). Les intervalles tiennent compte des poids et des votes répétés d'un même visiteur.",
  'population.ess': 'Nombre effectif de votes : {n}',
  'population.share': 'Part des votes avec réponses : {share}',
  'population.design_effect': 'Effet de plan : {value}',
  'population.too_few_votes': 'Pas encore affiché : il faut au moins {min} votes de visiteurs ayant répondu, il y en a {n}.',
  'population.too_few_visitors': 'Pas encore affiché : il faut au moins {min} visiteurs ayant répondu, il y en a {n}.',
  'population.margin_unreachable':
    "Pas encore affiché : personne n'a encore donné certaines réponses, la population ne peut pas être reproduite.",
  'population.col.rank': 'Rang',
  'population.col.model': 'Modèle',
  'population.col.rating': 'Score',
  'population.col.interval': 'Intervalle à 95 %',
} as const;
