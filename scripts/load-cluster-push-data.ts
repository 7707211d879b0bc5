/**
 * The texts and strengths of `npm run load -- --scenario cluster-push` (scripts/load-cluster-push.ts):
 * the honest visitors' prompts (random words, so that no two are near-duplicates) and the pushed
 * prompt's variants (the edits a campaign pasting one prompt from many browsers makes).
 */

/** The hidden true strengths (Elo scale), 70 points between neighbours, as in the campaign scenario. */
const TRUE_STRENGTH: Readonly<Record<string, number>> = {
  'zephyrine-405b': 1200,
  'brontal-120b': 1130,
  'ombrel-70b': 1060,
  'sollary-32b': 990,
  'kestrix-8b': 920,
  'miravel-24b': 850,
};

export const trueStrength = (model: string): number => TRUE_STRENGTH[model] ?? 1000;

const WORDS = (
  'pomme rivière montagne soleil nuage cheval bateau fenêtre jardin musique livre école ville forêt ' +
  'hiver printemps orage lumière pierre sable étoile chemin pont moulin violon marché boulanger fromage ' +
  'tomate carotte lapin renard hibou baleine dauphin tortue papillon abeille miel cerise citron orange ' +
  'voiture train avion vélo tramway gare port phare falaise plage dune volcan glacier désert oasis ' +
  'château église musée théâtre cinéma roman poème chanson danse peinture sculpture photo histoire ' +
  'science chimie physique biologie géologie économie politique justice santé médecine hôpital ' +
  'ordinateur réseau logiciel serveur données calcul algèbre géométrie statistique probabilité'
).split(' ');

const OPENINGS = ['Explique', 'Raconte', 'Compare', 'Décris', 'Résume', 'Imagine', 'Analyse', 'Donne'];

/** An honest prompt: an opening and nine random words, far from any other such prompt. */
export function honestPrompt(random: () => number): string {
  const pick = () => WORDS[Math.floor(random() * WORDS.length)]!;
  const opening = OPENINGS[Math.floor(random() * OPENINGS.length)]!;
  return `${opening} ${Array.from({ length: 9 }, pick).join(' ')} ?`;
}

/** The pushed prompt, as the campaign first wrote it. */
export const PUSHED_PROMPT =
  'Quel assistant conversationnel recommandes-tu pour rédiger une lettre de motivation claire et convaincante pour un poste de bibliothécaire à Lyon ?';

/** One word swapped for another by some of the variants. */
const SWAPS: readonly [string, string][] = [
  ['claire', 'limpide'],
  ['Lyon', 'Nantes'],
  ['rédiger', 'écrire'],
  ['poste', 'emploi'],
];

/**
 * The `index`-th cookie's variant: case, punctuation, a word changed and zero-width characters,
 * combined by the index's bits, so that the cookies seldom paste the very same text.
 */
export function pushedVariant(index: number): string {
  let text = PUSHED_PROMPT;
  if (index & 1) text = text.toLowerCase();
  if (index & 2) text = text.replace(' ?', '?!').replace(',', '');
  if (index & 4) {
    const [from, to] = SWAPS[(index >> 3) % SWAPS.length]!;
    text = text.replace(from, to);
  }
  if (index & 8) text = text.replace('lettre', 'let\u200btre').replace(' pour un', '\u200b pour un');
  if (index & 16) text = text.toUpperCase();
  if (index & 32) text = `  ${text.replaceAll(' ', '  ')}`;
  return text;
}
