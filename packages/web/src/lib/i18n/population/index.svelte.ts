import { AreaI18n } from '../area.svelte';
import type { fr } from './fr';

export type PopulationMessageKey = keyof typeof fr;

/** The population survey's and weighted board's messages: the survey panel (fetched after a vote) and the leaderboard page. */
export const populationI18n = new AreaI18n<PopulationMessageKey>({
  fr: () => import('./fr').then((module) => module.fr),
  en: () => import('./en').then((module) => module.en),
  da: () => import('./da').then((module) => module.da),
  sv: () => import('./sv').then((module) => module.sv),
  lt: () => import('./lt').then((module) => module.lt),
});
export const pt = populationI18n.t;
