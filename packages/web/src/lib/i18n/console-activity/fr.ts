/** French messages of the console-activity area (the reference: every other language has the same keys). */
export const fr = {
  'console.activity.nav': 'Activité',
  'console.activity.title': 'Activité de l’arène',
  'console.activity.intro':
    'Des chiffres agrégés sur les duels joués ici, lus dans la base à chaque demande : chaque instance donne les mêmes. Aucun texte de conversation n’y figure.',
  'console.activity.period_label': 'Période',
  'console.activity.period_option': '{days} derniers jours',
  'console.activity.period_note': 'Du {from} au {to}, en jours UTC ; chiffres calculés le {date}.',
  'console.activity.loading': 'Chargement des chiffres…',
  'console.activity.failed': 'Les chiffres n’ont pas pu être chargés. Réessayez dans un instant.',
  'console.activity.empty': 'Aucun duel n’a été joué ici sur cette période.',
  'console.activity.imported':
    '{count} duels importés (compar:IA) datés de cette période ne sont comptés dans aucun chiffre de cette page : ils n’ont pas été joués ici.',
  'console.activity.imported_none':
    'Les duels importés (compar:IA) ne sont comptés dans aucun chiffre de cette page : ils n’ont pas été joués ici.',
  'console.activity.totals_title': 'Sur la période',
  'console.activity.totals_duels': 'duels',
  'console.activity.totals_votes': 'votes',
  'console.activity.totals_reactions': 'réactions',
  'console.activity.totals_reports': 'signalements',
  'console.activity.days_title': 'Jour par jour',
  'console.activity.days_chart':
    'Duels, votes, réactions et signalements par jour (signalements en pointillés) ; le tableau donne les mêmes chiffres.',
  'console.activity.col_reports': 'Signalements',
  'console.activity.funnel_title': 'Du message au vote',
  'console.activity.funnel_intro':
    'Les duels commencés sur la période, suivis jusqu’au bout : un message envoyé, les deux réponses complètes au premier tour, puis un vote.',
  'console.activity.funnel.prompts': 'Message envoyé',
  'console.activity.funnel.answered': 'Deux réponses complètes',
  'console.activity.funnel.voted': 'Vote donné',
  'console.activity.col_step': 'Étape',
  'console.activity.col_of_prompts': 'Part des messages',
  'console.activity.languages_title': 'Langues',
  'console.activity.languages_note': 'Les {screened} conversations de la période déjà analysées, chacune sous sa langue principale.',
  'console.activity.topics_title': 'Thèmes',
  'console.activity.topics_note': 'Une conversation analysée compte sous chacun de ses thèmes.',
  'console.activity.topics_none': 'Sans thème',
  'console.activity.modes_title': 'Modes',
  'console.activity.models_title': 'Échecs par modèle',
  'console.activity.models_note':
    'Les réponses des tours commencés sur la période. Taux d’échec = réponses échouées ÷ réponses. Une réponse interrompue parce que l’autre modèle a échoué n’est pas un échec de son modèle.',
  'console.activity.models_empty': 'Aucune réponse sur la période.',
  'console.activity.col_sides': 'Réponses',
  'console.activity.col_complete': 'Complètes',
  'console.activity.col_failed': 'Échouées',
  'console.activity.col_cancelled': 'Interrompues',
  'console.activity.col_failure_rate': 'Taux d’échec',
};
