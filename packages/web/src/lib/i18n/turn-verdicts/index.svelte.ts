import { AreaI18n } from '../area.svelte';
import type { fr } from './fr';

export type VerdictMessageKey = keyof typeof fr;

/** The turn-verdicts area's messages: the verdict control under each completed turn (a chunk of its own). */
export const verdictI18n = new AreaI18n<VerdictMessageKey>({
  fr: () => import('./fr').then((module) => module.fr),
  en: () => import('./en').then((module) => module.en),
  da: () => import('./da').then((module) => module.da),
  sv: () => import('./sv').then((module) => module.sv),
  lt: () => import('./lt').then((module) => module.lt),
});
export const vt = verdictI18n.t;
