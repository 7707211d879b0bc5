import { AreaI18n } from '../area.svelte';
import type { fr } from './fr';

export type CapabilityMessageKey = keyof typeof fr;

/** The capabilities area's messages: the leaderboard's capability filter and the model pages' capability views. */
export const capabilityI18n = new AreaI18n<CapabilityMessageKey>({
  fr: () => import('./fr').then((module) => module.fr),
  en: () => import('./en').then((module) => module.en),
  da: () => import('./da').then((module) => module.da),
  sv: () => import('./sv').then((module) => module.sv),
  lt: () => import('./lt').then((module) => module.lt),
});
export const ct = capabilityI18n.t;
