/**
 * Constants of the EcoLogits 0.8.2 LLM-inference model (docs/impact.md#constants-082), the one compar:IA runs in
 * production: A100 80 GB GPUs, 4-bit weights, no batching, 5-year lifetime, 95 % bands. Energy fit in kWh.
 */
export const ECOLOGITS_0_8_2 = {
  /** Bits per weight, used for memory sizing only. */
  quantizationBits: 4,
  /** GPU energy fit: kWh per (token · billion active parameters). */
  gpuEnergyAlpha: 8.91e-8,
  /** GPU energy fit: kWh per token. */
  gpuEnergyBeta: 1.43e-6,
  /** Residual standard deviation of the energy fit, kWh per token. */
  gpuEnergyStdev: 5.19e-7,
  /** Latency fit: seconds per (token · billion active parameters). */
  latencyAlpha: 8.02e-4,
  /** Latency fit: seconds per token. */
  latencyBeta: 2.23e-2,
  /** Residual standard deviation of the latency fit, seconds per token. */
  latencyStdev: 7.0e-6,
  /** Half-width of the 95 % band in standard deviations. */
  bandZ: 1.96,
  /** Memory overhead factor over the raw weights. */
  memoryOverhead: 1.2,
  /** GPU memory, GB. */
  gpuMemoryGb: 80,
  /** Server power excluding GPUs, kW. */
  serverPowerKw: 1,
  /** GPUs per server. */
  serverGpuCount: 8,
  /** Embodied impacts of one server excluding GPUs (p4de.24xlarge; the code's values, not the docs'). */
  serverEmbodied: { gwp: 3000, adpe: 0.24, pe: 38000 },
  /** Embodied impacts of one A100 GPU (Boavizta). */
  gpuEmbodied: { gwp: 143, adpe: 5.1e-3, pe: 1828 },
  /** Hardware lifetime, seconds (5 years of 365 days). */
  hardwareLifetimeSeconds: 5 * 365 * 24 * 60 * 60,
  /** The library's default data-centre PUE (`DATACENTER_PUE`), which compar:IA does not override. */
  defaultPue: 1.2,
} as const;
