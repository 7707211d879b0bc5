import { interfaceLocaleOf, type InterfaceLocale } from '@agora/contract';
import type { ImpactMethod } from './impact-types';

/** Locales of the reveal's impact texts: every language of the interface (a missing one is a type error); French is the default. */
export type ImpactLocale = InterfaceLocale;

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

/**
 * The impact texts, keyed by locale: `Record` over every interface language, so a language added to
 * the interface without its texts here does not compile. Numbers in the texts restate the factors of
 * `equivalents.ts`, written as each language writes numbers.
 */
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
  da: {
    equivalents: {
      led_bulb: { label: 'tændt 5 W LED-pære', source: 'Almindelig 5 W LED-pære (E14), den reference compar:IA bruger' },
      video_streaming: {
        label: 'onlinevideo (HD, på et fjernsyn, via wi-fi)',
        source: 'ADEME, Impact CO2: 31,7 g CO2e pr. time streamet HD-video',
      },
      electric_car: { label: 'i elbil', source: 'EcoLogits-beregneren (GenAI Impact): 0,17 kWh pr. km' },
    },
    units: { s: 's', min: 'min', h: 't', d: 'd', m: 'm', km: 'km' },
    methods: {
      'ecologits-0.9.1': 'EcoLogits 0.9.1',
      'ecologits-0.8.2': 'EcoLogits 0.8.2',
      'comparia-compat': 'compar:IA-kompatibilitet (EcoLogits 0.8.2, globalt elmix, PUE 1,2)',
    },
    worldZone: 'gennemsnitligt globalt elmix',
    zone: (code) => `elmixet i zonen ${code}`,
  },
  sv: {
    equivalents: {
      led_bulb: { label: 'tänd LED-lampa på 5 W', source: 'Vanlig LED-lampa på 5 W (E14), referensen som compar:IA använder' },
      video_streaming: {
        label: 'onlinevideo (HD, på en tv, via wifi)',
        source: 'ADEME, Impact CO2: 31,7 g CO2e per timme strömmad HD-video',
      },
      electric_car: { label: 'med elbil', source: 'EcoLogits-kalkylatorn (GenAI Impact): 0,17 kWh per km' },
    },
    units: { s: 's', min: 'min', h: 'tim', d: 'dygn', m: 'm', km: 'km' },
    methods: {
      'ecologits-0.9.1': 'EcoLogits 0.9.1',
      'ecologits-0.8.2': 'EcoLogits 0.8.2',
      'comparia-compat': 'compar:IA-kompatibilitet (EcoLogits 0.8.2, global elmix, PUE 1,2)',
    },
    worldZone: 'genomsnittlig global elmix',
    zone: (code) => `elmixen i zonen ${code}`,
  },
  lt: {
    equivalents: {
      led_bulb: { label: 'įjungta 5 W LED lemputė', source: 'Įprasta 5 W LED lemputė (E14), compar:IA naudojamas atskaitos taškas' },
      video_streaming: {
        label: 'vaizdo įrašų internetu (HD, televizoriuje, per belaidį tinklą)',
        source: 'ADEME, Impact CO2: 31,7 g CO2e per valandą transliuojamo HD vaizdo',
      },
      electric_car: { label: 'elektromobiliu', source: 'EcoLogits skaičiuoklė (GenAI Impact): 0,17 kWh kilometrui' },
    },
    units: { s: 's', min: 'min', h: 'val.', d: 'd.', m: 'm', km: 'km' },
    methods: {
      'ecologits-0.9.1': 'EcoLogits 0.9.1',
      'ecologits-0.8.2': 'EcoLogits 0.8.2',
      'comparia-compat': 'suderinamumas su compar:IA (EcoLogits 0.8.2, pasaulinis elektros energijos derinys, PUE 1,2)',
    },
    worldZone: 'vidutinis pasaulinis elektros energijos derinys',
    zone: (code) => `zonos ${code} elektros energijos derinys`,
  },
};

/** The locale to use for a visitor's locale tag: its interface language (`sv-SE` gives Swedish), anything else French. */
export function resolveImpactLocale(locale?: string | null): ImpactLocale {
  return interfaceLocaleOf(locale) ?? 'fr';
}
