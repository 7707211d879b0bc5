import type { ComparIaConsumption, ComparIaDuration } from './comparia-compat';
import { IMPACT_MESSAGES, type EquivalentKind, type EquivalentUnit, type ImpactLocale } from './impact-messages';

/** Where an equivalent's factor comes from: a localised description and a link. */
export interface EquivalentSource {
  name: string;
  url: string;
}

/** One everyday equivalent of the reveal, e.g. `{kind: 'led_bulb', value: 36, unit: 's', …}`. */
export interface Equivalent {
  kind: EquivalentKind;
  value: number;
  unit: EquivalentUnit;
  /** The unit abbreviation in the requested locale (`j` / `d` for days). */
  unit_label: string;
  label: string;
  source: EquivalentSource;
}

/**
 * Factors of the equivalents and their sources: a 5 W LED bulb (compar:IA's reference), 31.7 g CO2e
 * per hour of HD video streamed to a TV over Wi-Fi (ADEME Impact CO2, as compar:IA), and an electric
 * car using 0.17 kWh per km (EcoLogits calculator, `src/utils.py`).
 */
export const EQUIVALENT_FACTORS = {
  led_bulb: { watts: 5, url: 'https://github.com/betagouv/ComparIA/blob/main/backend/llms/utils.py' },
  video_streaming: { gramsCo2ePerHour: 31.7, url: 'https://impactco2.fr/outils/usagenumerique/streamingvideo' },
  electric_car: { whPerKm: 170, url: 'https://github.com/genai-impact/ecologits-calculator' },
} as const;

interface Amount {
  kind: EquivalentKind;
  value: number;
  unit: EquivalentUnit;
}

/** A duration in hours in the largest unit (days, hours, minutes, seconds) in which it reaches 1. */
export function durationAmount(kind: EquivalentKind, hours: number): Amount {
  if (hours >= 24) return { kind, value: hours / 24, unit: 'd' };
  if (hours >= 1) return { kind, value: hours, unit: 'h' };
  if (hours * 60 >= 1) return { kind, value: hours * 60, unit: 'min' };
  return { kind, value: hours * 3600, unit: 's' };
}

/** A distance in kilometres, in km from 1 km up, else in metres. */
export function distanceAmount(kind: EquivalentKind, kilometres: number): Amount {
  return kilometres >= 1 ? { kind, value: kilometres, unit: 'km' } : { kind, value: kilometres * 1000, unit: 'm' };
}

/** Rounds for display: integers from 10, one decimal from 1, two significant digits below 1. */
export function roundForDisplay(value: number): number {
  if (value >= 10) return Math.round(value);
  if (value >= 1) return Math.round(value * 10) / 10;
  return value > 0 ? Number(value.toPrecision(2)) : 0;
}

function localise(amount: Amount, locale: ImpactLocale): Equivalent {
  const messages = IMPACT_MESSAGES[locale];
  const text = messages.equivalents[amount.kind];
  return {
    kind: amount.kind,
    value: roundForDisplay(amount.value),
    unit: amount.unit,
    unit_label: messages.units[amount.unit],
    label: text.label,
    source: { name: text.source, url: EQUIVALENT_FACTORS[amount.kind].url },
  };
}

/**
 * Two or three everyday equivalents of a conversation's energy (Wh) and carbon (g CO2e), in units
 * that keep the numbers readable. Candidates, in order: LED bulb time (energy), online-video time
 * (carbon), electric-car distance (energy). Those reaching at least 1 in their unit are kept; when
 * fewer than two do, the LED bulb and the video are shown anyway (they go down to seconds).
 */
export function everydayEquivalents(amounts: { energyWh: number; gwpG: number }, locale: ImpactLocale): Equivalent[] {
  const candidates = [
    durationAmount('led_bulb', amounts.energyWh / EQUIVALENT_FACTORS.led_bulb.watts),
    durationAmount('video_streaming', amounts.gwpG / EQUIVALENT_FACTORS.video_streaming.gramsCo2ePerHour),
    distanceAmount('electric_car', amounts.energyWh / EQUIVALENT_FACTORS.electric_car.whPerKm),
  ];
  const readable = candidates.filter((candidate) => candidate.value >= 1);
  return (readable.length >= 2 ? readable : candidates.slice(0, 2)).map((amount) => localise(amount, locale));
}

function comparIaAmount(kind: EquivalentKind, duration: ComparIaDuration): Amount {
  return { kind, value: duration.value, unit: duration.unit === 'j' ? 'd' : duration.unit };
}

/** compar:IA's two equivalents (LED bulb, online video) exactly as its reveal card shows them (truncated). */
export function comparIaEquivalents(consumption: ComparIaConsumption, locale: ImpactLocale): Equivalent[] {
  return [comparIaAmount('led_bulb', consumption.lightbulb), comparIaAmount('video_streaming', consumption.streaming)].map((amount) => ({
    ...localise(amount, locale),
    value: amount.value,
  }));
}
