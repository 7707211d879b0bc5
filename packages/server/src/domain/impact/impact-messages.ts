import type { ImpactMethod } from './impact-types';

/** Locales of the reveal's impact texts; French is the default. */
export type ImpactLocale = 'fr' | 'en';

/** Kinds of everyday equivalents shown on the reveal. */
export type EquivalentKind = 'led_bulb' | 'video_streaming' | 'electric_car';

/** Units of the equivalents: durations (seconds to days) and distances. */
export type EquivalentUnit = 's' | 'min' | 'h' | 'd' | 'm' | 'km';

/** The texts of one locale: equivalent labels and sources, unit abbreviations, method and zone labels. */
export interface ImpactMessages {
  equivalents: Record<EquivalentKind, { label: string; source: string }>;
  units: Record<EquivalentUnit, string>;
  methods: Record<ImpactMethod, string>;
  worldZone: string;
  zone: (code: string) => string;
}

/** The impact texts, keyed by locale. Numbers in the texts restate the factors of `equivalents.ts`. */
export const IMPACT_MESSAGES: Readonly<Record<ImpactLocale, ImpactMessages>> = {
  fr: {
    equivalents: {
      led_bulb: { label: 'ampoule LED de 5 W allumée', source: 'Ampoule LED standard de 5 W (E14), repère utilisé par compar:IA' },
      video_streaming: {
        label: 'de vidéo en ligne (HD, sur une télévision, en wifi)',
        source: 'ADEME, Impact CO2 : 31,7 g CO2e par heure de vidéo HD en streaming',
      },
      electric_car: { label: 'en voiture électrique', source: 'Calculateur EcoLogits (GenAI Impact) : 0,17 kWh par km' },
    },
    units: { s: 's', min: 'min', h: 'h', d: 'j', m: 'm', km: 'km' },
    methods: {
      'ecologits-0.9.1': 'EcoLogits 0.9.1',
      'ecologits-0.8.2': 'EcoLogits 0.8.2',
      'comparia-compat': 'Compatibilité compar:IA (EcoLogits 0.8.2, mix mondial, PUE 1,2)',
    },
    worldZone: 'mix électrique mondial moyen',
    zone: (code) => `mix électrique de la zone ${code}`,
  },
  en: {
    equivalents: {
      led_bulb: { label: 'of a 5 W LED bulb', source: 'Standard 5 W LED bulb (E14), the reference compar:IA uses' },
      video_streaming: {
        label: 'of online video (HD, on a TV, over Wi-Fi)',
        source: 'ADEME, Impact CO2: 31.7 g CO2e per hour of streamed HD video',
      },
      electric_car: { label: 'by electric car', source: 'EcoLogits calculator (GenAI Impact): 0.17 kWh per km' },
    },
    units: { s: 's', min: 'min', h: 'h', d: 'd', m: 'm', km: 'km' },
    methods: {
      'ecologits-0.9.1': 'EcoLogits 0.9.1',
      'ecologits-0.8.2': 'EcoLogits 0.8.2',
      'comparia-compat': 'compar:IA compatibility (EcoLogits 0.8.2, world mix, PUE 1.2)',
    },
    worldZone: 'world average electricity mix',
    zone: (code) => `electricity mix of zone ${code}`,
  },
};

/** The locale to use for a visitor's locale tag: `en…` gives English, anything else French. */
export function resolveImpactLocale(locale?: string | null): ImpactLocale {
  return locale?.trim().toLowerCase().startsWith('en') ? 'en' : 'fr';
}
