/*
 * Electricity-mix impact factors of EcoLogits 0.9.1, one row per zone (ISO 3166-1 alpha-3, plus
 * `WOR` for the world average).
 *
 * Data copied verbatim (values unchanged, reformatted as TypeScript) from
 * `ecologits/data/electricity_mixes.csv` of GenAI Impact's EcoLogits, tag 0.9.1 (commit 2d0a1c76),
 * https://github.com/genai-impact/ecologits. Upstream sources of the numbers: GWP from Our World in
 * Data, off-site water (WUE) from the World Resources Institute, ADPe and PE from ADEME Base
 * Empreinte (upstream commit 0adc8ab, 2025-09-08).
 *
 * This Source Code Form is subject to the terms of the Mozilla Public License, v. 2.0. If a copy of
 * the MPL was not distributed with this file, You can obtain one at https://mozilla.org/MPL/2.0/.
 * (This file only is MPL-2.0, as the upstream data it contains; see docs/impact.md.)
 */
import type { ElectricityMixFactors } from './impact-types';

/**
 * EcoLogits 0.9.1 electricity mixes by zone: `gwp` kgCO2eq/kWh, `adpe` kgSbeq/kWh, `pe` MJ/kWh,
 * `wue` off-site water L/kWh. 50 zones.
 */
export const ELECTRICITY_MIXES_0_9_1: Readonly<Record<string, ElectricityMixFactors>> = {
  ARG: { gwp: 0.35895, adpe: 0.00000007686, pe: 7.8888, wue: 11.4558 },
  AUS: { gwp: 0.55159, adpe: 0.00000007908, pe: 12.2247, wue: 4.7293 },
  AUT: { gwp: 0.10262, adpe: 0.00000014112, pe: 2.8363, wue: 5.7222 },
  BEL: { gwp: 0.11758, adpe: 0.00000003372, pe: 8.9876, wue: 2.6198 },
  BGR: { gwp: 0.26421, adpe: 0.00000008236, pe: 12.118, wue: 4.6228 },
  BRA: { gwp: 0.10321, adpe: 0.00000010962, pe: 1.7701, wue: 18.6033 },
  CAN: { gwp: 0.17481, adpe: 0.00000009932, pe: 4.1955, wue: 8.1662 },
  CHE: { gwp: 0.0366, adpe: 0.00000010047, pe: 4.7362, wue: 5.6641 },
  CHL: { gwp: 0.26552, adpe: 0.00000010585, pe: 6.434, wue: 10.5226 },
  CHN: { gwp: 0.55955, adpe: 0.00000008516, pe: 10.6736, wue: 6.0065 },
  CYP: { gwp: 0.51224, adpe: 0.00000004488, pe: 11.9763, wue: 1.2947 },
  CZE: { gwp: 0.41386, adpe: 0.00000008176, pe: 11.103, wue: 3.2133 },
  DEU: { gwp: 0.34414, adpe: 0.00000008787, pe: 8.7477, wue: 1.947 },
  DNK: { gwp: 0.1433, adpe: 0.00000001574, pe: 6.6454, wue: 3.1935 },
  ESP: { gwp: 0.14615, adpe: 0.00000005183, pe: 7.4839, wue: 6.2088 },
  EST: { gwp: 0.34102, adpe: 0.00000009902, pe: 14.2926, wue: 2.1986 },
  FIN: { gwp: 0.07225, adpe: 0.00000008051, pe: 6.2915, wue: 4.5289 },
  FRA: { gwp: 0.04418, adpe: 0.00000004858, pe: 9.3135, wue: 3.6737 },
  GBR: { gwp: 0.21089, adpe: 0.0000000371, pe: 9.0976, wue: 2.329 },
  GRC: { gwp: 0.31976, adpe: 0.00000006916, pe: 10.5179, wue: 5.1451 },
  HUN: { gwp: 0.18282, adpe: 0.00000006446, pe: 10.5942, wue: 3.6874 },
  IDN: { gwp: 0.68243, adpe: 0.00000006105, pe: 9.7582, wue: 2.2554 },
  IND: { gwp: 0.70832, adpe: 0.0000001001, pe: 16.6775, wue: 3.4368 },
  IRL: { gwp: 0.2797, adpe: 0.00000002193, pe: 8.0614, wue: 1.4769 },
  ISL: { gwp: 0.02833, adpe: 0.00000007819, pe: 0.0128, wue: 6.1409 },
  ITA: { gwp: 0.28753, adpe: 0.00000005439, pe: 7.9351, wue: 4.8374 },
  JPN: { gwp: 0.48232, adpe: 0.00000005966, pe: 9.1105, wue: 2.3063 },
  KOR: { gwp: 0.41427, adpe: 0.0000000518, pe: 9.9136, wue: 1.8877 },
  LTU: { gwp: 0.13934, adpe: 0.00000002946, pe: 10.6476, wue: 5.8994 },
  LUX: { gwp: 0.13462, adpe: 0.00000010569, pe: 8.0213, wue: 12.7784 },
  LVA: { gwp: 0.13622, adpe: 0.00000015376, pe: 3.7781, wue: 2.5526 },
  MEX: { gwp: 0.48483, adpe: 0.00000005784, pe: 9.9732, wue: 5.3047 },
  MLT: { gwp: 0.48416, adpe: 0.00000004948, pe: 16.3514, wue: 1.1185 },
  MYS: { gwp: 0.60443, adpe: 0.00000004494, pe: 10.5875, wue: 1.6778 },
  NLD: { gwp: 0.25331, adpe: 0.00000003293, pe: 7.4815, wue: 3.433 },
  NOR: { gwp: 0.03075, adpe: 0.00000012749, pe: 0.1386, wue: 6.6633 },
  NZL: { gwp: 0.12011, adpe: 0.00000007205, pe: 3.9817, wue: 14.9681 },
  POL: { gwp: 0.61498, adpe: 0.00000010195, pe: 11.1352, wue: 2.5135 },
  PRT: { gwp: 0.11229, adpe: 0.00000003419, pe: 6.5813, wue: 9.5932 },
  ROU: { gwp: 0.24555, adpe: 0.00000009818, pe: 9.1329, wue: 7.3563 },
  RUS: { gwp: 0.4492, adpe: 0.00000009603, pe: 10.9691, wue: 3.4595 },
  SVK: { gwp: 0.09649, adpe: 0.00000006061, pe: 8.8184, wue: 5.7952 },
  SVN: { gwp: 0.22765, adpe: 0.00000009923, pe: 8.4293, wue: 2.9769 },
  SWE: { gwp: 0.03582, adpe: 0.00000007771, pe: 4.7301, wue: 6.0315 },
  THA: { gwp: 0.5545, adpe: 0.00000005696, pe: 9.0495, wue: 2.8902 },
  TUR: { gwp: 0.4697, adpe: 0.00000007498, pe: 8.7855, wue: 4.9197 },
  TWN: { gwp: 0.63565, adpe: 0.00000005781, pe: 10.9587, wue: 1.4886 },
  UKR: { gwp: 0.25621, adpe: 0.00000006479, pe: 12.2117, wue: 2.1306 },
  USA: { gwp: 0.38355, adpe: 0.00000009855, pe: 9.6884, wue: 3.1321 },
  WOR: { gwp: 0.47301, adpe: 0.00000001349, pe: 2.5871, wue: 3.908 },
};
