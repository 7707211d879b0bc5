import type { fr } from './fr';

/** Messages of the console-review area in this language: the keys of the French file, type-checked. */
export const en: Record<keyof typeof fr, string> = {
  'console.review.nav': 'Review',
  'console.integrity.nav': 'Vote integrity',
};
