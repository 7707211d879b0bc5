import { ELECTRICITY_MIXES_0_8_2 } from './electricity-mixes-0-8-2';
import { ELECTRICITY_MIXES_0_9_1 } from './electricity-mixes-0-9-1';
import { ImpactError } from './impact-error';
import type { EcologitsVersion, ElectricityMixFactors } from './impact-types';

const mixesByVersion: Record<EcologitsVersion, Readonly<Record<string, ElectricityMixFactors>>> = {
  '0.9.1': ELECTRICITY_MIXES_0_9_1,
  '0.8.2': ELECTRICITY_MIXES_0_8_2,
};

/** The world-average zone, compar:IA's choice for every model. */
export const WORLD_ZONE = 'WOR';

/**
 * Attribution and licence notice of the shipped electricity-mix data (docs/impact.md#licences). Show it wherever the
 * factors are published (docs, API docs, about page).
 */
export const ELECTRICITY_MIX_ATTRIBUTION =
  'Electricity-mix factors from EcoLogits by GenAI Impact (https://github.com/genai-impact/ecologits, ' +
  'ecologits/data/electricity_mixes.csv at tags 0.9.1 and 0.8.2), MPL-2.0. Underlying sources: ' +
  'Our World in Data (GWP, 0.9.1), World Resources Institute (water, 0.9.1), ADEME Base Empreinte / ' +
  'Base IMPACTS (ADPe and PE; every 0.8.2 factor).';

/** The zones (ISO 3166-1 alpha-3, plus `WOR` and, in 0.8.2, `EEE`) of a version, sorted. */
export function electricityMixZones(version: EcologitsVersion): string[] {
  return Object.keys(mixesByVersion[version]).sort();
}

/**
 * The electricity mix of a zone in a version's data (case-insensitive zone code).
 * @throws ImpactError `zone_not_registered` when the version has no such zone.
 */
export function findElectricityMix(version: EcologitsVersion, zone: string): ElectricityMixFactors {
  const code = zone.trim().toUpperCase();
  const mix = Object.hasOwn(mixesByVersion[version], code) ? mixesByVersion[version][code] : undefined;
  if (mix === undefined) {
    throw new ImpactError('zone_not_registered', `no electricity mix for zone '${zone}' in EcoLogits ${version}`);
  }
  return mix;
}
