/** French messages of the site area (the reference: every other language has the same keys). */
export const fr = {
  'site.setup.keys': 'Définissez au moins une de ces variables : {keys}.',
  'site.setup.no_keys': 'Ajoutez des modèles au catalogue.',
  'site.setup.other_ways':
    'Autres possibilités : lancez agora models pull pour faire tourner de petits modèles ouverts sur cette machine (sans clé), ou faites pointer AGORA_MODELS vers un autre catalogue, puis redémarrez. La commande npm run demo lance l’arène hors ligne, avec un faux fournisseur intégré.',
  'site.license.proprietary': 'Propriétaire',
  'site.license.unknown': 'Licence inconnue',
  'site.license_kind.permissive': 'licence libre',
  'site.license_kind.conditions': 'licence ouverte avec conditions',
  'site.license_kind.proprietary': 'modèle fermé',
  'site.license_kind.unknown': 'licence inconnue',
  'site.contact.title': 'Contacter l’opérateur',
  'site.contact.body': 'Pour toute question ou demande sur vos données :',
  'site.contact.none': 'Cette arène est privée : adressez-vous à la personne qui vous y a invité.',
  'site.page_missing': 'L’opérateur de cette arène n’a pas encore écrit cette page.',
} as const;
