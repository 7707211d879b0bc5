/**
 * Constants of the EcoLogits 0.9.1 LLM-inference model (docs/impact.md#constants-091): H100 80 GB GPUs, vLLM, batch of
 * 64 requests, 16-bit weights, 3-year hardware lifetime. Energy fit in Wh, latency fit in seconds.
 */
export const ECOLOGITS_0_9_1 = {
  /** Bits per weight, used for memory sizing only. */
  quantizationBits: 16,
  /** GPU energy fit: Wh per (token · billion active parameters). */
  gpuEnergyAlpha: 1.1665273170451914e-6,
  /** GPU energy fit: exponential batch-size term, per request. */
  gpuEnergyBeta: -0.011205921025579175,
  /** GPU energy fit: Wh per token. */
  gpuEnergyGamma: 4.052928146734005e-5,
  /** Latency fit: seconds per (token · billion active parameters). */
  latencyAlpha: 0.0006785088094353663,
  /** Latency fit: seconds per (token · concurrent request). */
  latencyBeta: 0.0003119310311688259,
  /** Latency fit: seconds per token. */
  latencyGamma: 0.019473717579473387,
  /** Requests served concurrently. */
  batchSize: 64,
  /** Memory overhead factor over the raw weights ("Transformer Math 101"). */
  memoryOverhead: 1.2,
  /** GPU memory, GB. */
  gpuMemoryGb: 80,
  /** Server power excluding GPUs, kW. */
  serverPowerKw: 1.2,
  /** GPUs per server. */
  serverGpuCount: 8,
  /** Embodied impacts of one server excluding GPUs (p5.48xlarge via BoaviztAPI). */
  serverEmbodied: { gwp: 5700, adpe: 0.37, pe: 70000 },
  /** Embodied impacts of one GPU (GWP: NVIDIA HGX H100 PCF; ADPe and PE still the A100 values upstream). */
  gpuEmbodied: { gwp: 164, adpe: 5.1e-3, pe: 1828 },
  /** Hardware lifetime, seconds (3 years of 365 days). */
  hardwareLifetimeSeconds: 3 * 365 * 24 * 60 * 60,
} as const;
