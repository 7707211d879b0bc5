/** French messages of the console-content area (the reference: every other language has the same keys). */
export const fr = {
  'console.content.nav': 'Contenu',
  'console.content.title': 'Contenu de l’arène',
  'console.content.intro':
    'Les appréciations de vote, les suggestions de questions et les pages du site, langue par langue. Tant que rien n’est enregistré pour une langue, l’arène montre ses textes d’origine ; une liste enregistrée remplace toute la liste d’origine de sa langue.',
  'console.content.language': 'Langue à modifier',
  'console.content.sections': 'Parties de la page',
  'console.content.failed_load': 'Le contenu n’a pas pu être lu. Réessayez dans un instant.',
  'console.content.failed_save': 'L’enregistrement a échoué. Réessayez dans un instant.',
  'console.content.save': 'Enregistrer',
  'console.content.reset': 'Revenir au texte d’origine',
  'console.content.saved': 'Enregistré : les visiteurs le voient d’ici quelques secondes.',
  'console.content.reset_done': 'Revenu au texte d’origine.',
  'console.content.state.stored': 'Liste enregistrée dans la console : elle remplace la liste d’origine pour cette langue.',
  'console.content.state.built_in': 'Liste d’origine : rien n’est enregistré pour cette langue.',
  'console.content.tags.title': 'Appréciations de vote',
  'console.content.tags.intro':
    'Cochez les appréciations proposées aux votants et écrivez leur libellé (40 caractères au plus). Les appréciations elles-mêmes restent celles de compar:IA : les jeux de données les comptent.',
  'console.content.tags.caption': 'Appréciations proposées dans cette langue',
  'console.content.tags.column.tag': 'Appréciation',
  'console.content.tags.column.offered': 'Proposée',
  'console.content.tags.column.label': 'Libellé affiché',
  'console.content.tags.kind.positive': 'positive',
  'console.content.tags.kind.negative': 'négative',
  'console.content.tags.offer': 'Proposer « {tag} »',
  'console.content.tags.label_of': 'Libellé affiché pour « {tag} »',
  'console.content.tags.none': 'Cochez au moins une appréciation.',
  'console.content.suggestions.title': 'Suggestions de questions',
  'console.content.suggestions.intro':
    'Les idées proposées sous la zone de saisie, rangées par catégorie : {max} au plus, de {chars} caractères au plus chacune, sur une ligne.',
  'console.content.suggestions.category': 'Catégorie de la suggestion {n}',
  'console.content.suggestions.text': 'Suggestion {n}',
  'console.content.suggestions.remove': 'Retirer la suggestion {n}',
  'console.content.suggestions.remove_short': 'Retirer',
  'console.content.suggestions.add': 'Ajouter une suggestion',
  'console.content.pages.title': 'Pages du site',
  'console.content.pages.intro':
    'Méthodologie, conditions d’utilisation, confidentialité, mentions légales et accessibilité, écrites en Markdown. L’aperçu les montre comme les visiteurs les verront.',
  'console.content.pages.read_only':
    'Le dossier AGORA_PAGES_DIR est configuré : ses fichiers l’emportent sur la console, qui montre les pages en lecture seule. Modifiez les fichiers de ce dossier.',
  'console.content.pages.page': 'Page à modifier',
  'console.content.pages.source.stored': 'Texte enregistré dans la console le {date} par {who}.',
  'console.content.pages.source.bundled': 'Texte d’origine fourni avec Agora : rien n’est enregistré pour cette langue.',
  'console.content.pages.source.folder': 'Texte du dossier AGORA_PAGES_DIR.',
  'console.content.pages.source.none':
    'Aucun texte dans cette langue. Une fois enregistrée, la page apparaît dans le pied de page du site.',
  'console.content.pages.editor': 'Texte de la page « {page} » (Markdown)',
  'console.content.pages.hint':
    'Titres avec #, listes avec -, liens avec [texte](adresse). Le HTML est affiché tel quel, jamais interprété.',
  'console.content.pages.preview': 'Aperçu',
};
