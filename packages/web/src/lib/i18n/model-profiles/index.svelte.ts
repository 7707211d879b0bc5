import { AreaI18n } from '../area.svelte';
import type { fr } from './fr';

export type ProfileMessageKey = keyof typeof fr;

/** The model-profiles area's messages: the model sheet's evidence and the head-to-head page. */
export const profileI18n = new AreaI18n<ProfileMessageKey>({
  fr: () => import('./fr').then((module) => module.fr),
  en: () => import('./en').then((module) => module.en),
  da: () => import('./da').then((module) => module.da),
  sv: () => import('./sv').then((module) => module.sv),
  lt: () => import('./lt').then((module) => module.lt),
});
export const pt = profileI18n.t;
