import type { fr } from './fr';

/** Messages of the console-publication area in this language: the keys of the French file, type-checked. */
export const da: Record<keyof typeof fr, string> = {
  'console.publication.nav': 'Udgivelse',
};
