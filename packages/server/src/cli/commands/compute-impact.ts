import type { Command } from 'commander';
import { z } from 'zod';
import { estimateImpact, ImpactError, type ImpactEstimate, type ValueOrRange } from '../../domain/impact';
import { CliUsageError, parseFlags, reportingUsageErrors } from '../cli-error';

const NUMBER = String.raw`(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
const SINGLE = new RegExp(`^${NUMBER}$`);
const RANGE = new RegExp(`^(${NUMBER})-(${NUMBER})$`);

/** A flag that takes `X` or `MIN-MAX` (non-negative decimals). */
function valueOrRange(flag: string) {
  return z.string().transform((text, context): ValueOrRange => {
    const range = RANGE.exec(text);
    if (range) return { min: Number(range[1]), max: Number(range[2]) };
    if (SINGLE.test(text)) return Number(text);
    context.addIssue({ code: 'custom', message: `${flag} takes a number or MIN-MAX, got '${text}'` });
    return z.NEVER;
  });
}

const flagsObject = z.object({
  params: z.string({ error: '--params is required (total parameters in billions, or MIN-MAX)' }).pipe(valueOrRange('--params')),
  active: valueOrRange('--active').optional(),
  arch: z.enum(['dense', 'moe', 'matformer', 'unknown'], { error: '--arch takes dense, moe, matformer or unknown' }).optional(),
  tokens: z
    .string({ error: '--tokens is required (output tokens)' })
    .regex(/^\d+$/, '--tokens takes a whole number of output tokens ≥ 0')
    .transform(Number),
  zone: z
    .string()
    .regex(/^[A-Za-z]{3}$/, '--zone takes an ISO 3166-1 alpha-3 code or WOR')
    .transform((zone) => zone.toUpperCase())
    .optional(),
  method: z.enum(['0.9.1', '0.8.2'], { error: '--method takes 0.9.1 or 0.8.2' }).optional(),
  provider: z.string().optional(),
  pue: valueOrRange('--pue').optional(),
  wue: valueOrRange('--wue').optional(),
  latencyS: z.string().regex(SINGLE, '--latency-s takes a number of seconds ≥ 0').transform(Number).optional(),
  quantization: z.enum(['q4', 'q8'], { error: '--quantization takes q4 or q8' }).optional(),
  compat: z.literal('comparia', { error: "--compat takes 'comparia'" }).optional(),
});

type ImpactFlags = z.infer<typeof flagsObject>;

const flagsSchema = flagsObject.superRefine((flags, context) => {
  const conflict = flagConflict(flags);
  if (conflict) context.addIssue({ code: 'custom', message: conflict });
});

/** Flags that contradict each other: compar:IA fixes the deployment; 0.8.2 has no water nor provider table. */
function flagConflict(flags: ImpactFlags): string | null {
  if (flags.compat === 'comparia') {
    const fixed = [
      flags.method === '0.9.1' && '--method 0.9.1 (compar:IA runs EcoLogits 0.8.2)',
      flags.zone !== undefined && flags.zone !== 'WOR' && '--zone (compar:IA uses WOR)',
      flags.pue !== undefined && flags.pue !== 1.2 && '--pue (compar:IA uses 1.2)',
      flags.wue !== undefined && '--wue',
      flags.latencyS !== undefined && '--latency-s (compar:IA passes no latency)',
      flags.provider !== undefined && '--provider',
    ].filter(Boolean);
    if (fixed.length > 0) return `--compat comparia fixes the method and deployment; drop ${fixed.join(', ')}`;
  }
  if (flags.method === '0.8.2' && flags.wue !== undefined) return '--wue applies to --method 0.9.1 only (0.8.2 has no water indicator)';
  if (flags.method === '0.8.2' && flags.provider !== undefined) return '--provider applies to --method 0.9.1 only';
  return null;
}

function estimate(flags: ImpactFlags): ImpactEstimate {
  try {
    const model = {
      params_b: flags.params,
      active_params_b: flags.active ?? null,
      arch: flags.arch ?? (flags.active === undefined ? 'dense' : 'moe'),
      provider: flags.provider ?? null,
      quantization: flags.quantization ?? null,
    };
    const options = { method: flags.method, compat: flags.compat, zone: flags.zone, pue: flags.pue, wue: flags.wue };
    return estimateImpact(model, flags.tokens, { ...options, latencySeconds: flags.latencyS });
  } catch (error) {
    if (error instanceof ImpactError) throw new CliUsageError(error.message);
    throw error;
  }
}

/** The printed JSON: the fields of docs/api.md#command-line-outputs first, then the split, the settings and the runs. */
function report({ settings, impacts }: ImpactEstimate, flags: ImpactFlags) {
  const indicators = (phase: 'total' | 'usage' | 'embodied') => ({
    gwp_kgco2eq: impacts.gwpKgCo2eq[phase],
    adpe_kgsbeq: impacts.adpeKgSbeq[phase],
    pe_mj: impacts.peMj[phase],
  });
  return {
    energy_kwh: impacts.energyKwh,
    ...indicators('total'),
    wcf_l: impacts.wcfLitres,
    usage: { energy_kwh: impacts.energyKwh, ...indicators('usage'), wcf_l: impacts.wcfLitres },
    embodied: indicators('embodied'),
    method: settings.method,
    zone: settings.zone,
    pue: settings.pue,
    wue: settings.wue,
    active_params_b: settings.activeParamsB,
    total_params_b: settings.totalParamsB,
    output_tokens: flags.tokens,
    latency_s: settings.usesLatency ? (flags.latencyS ?? null) : null,
    runs: impacts.runs.map((run) => ({
      active_params_b: run.activeParamsB,
      total_params_b: run.totalParamsB,
      gpu_count: run.gpuRequiredCount,
      generation_latency_s: run.generationLatencySeconds,
    })),
  };
}

/**
 * `agora impact`: the environmental impact of one answer as one JSON object (docs/api.md#command-line-outputs), with
 * EcoLogits 0.9.1 (default) or 0.8.2, or the compar:IA switch. Bad flags exit with code 2.
 */
export function registerImpactCommand(program: Command): void {
  reportingUsageErrors(program.command('impact'))
    .description('environmental impact of one answer (EcoLogits method), printed as JSON')
    .option('--params <B|MIN-MAX>', 'total parameters, billions')
    .option('--active <B|MIN-MAX>', 'active parameters per token (MoE), billions')
    .option('--arch <arch>', 'dense | moe | matformer | unknown (an moe without --active gets 10-30 % active)')
    .option('--tokens <N>', 'output tokens')
    .option('--zone <ISO3|WOR>', 'electricity-mix zone (default: provider location, else WOR)')
    .option('--method <version>', 'EcoLogits version: 0.9.1 (default) or 0.8.2')
    .option('--provider <key>', 'data-centre PUE/WUE/zone of anthropic, cohere, google_genai, huggingface_hub, mistralai, openai')
    .option('--pue <X|MIN-MAX>', 'data-centre PUE (default: provider, else 1.2)')
    .option('--wue <X|MIN-MAX>', 'on-site water usage effectiveness, L/kWh (0.9.1; default: provider, else 0)')
    .option('--latency-s <S>', 'measured request latency in seconds (caps the generation time)')
    .option('--quantization <q4|q8>', 'weight quantization (only the compar:IA switch uses it: q8 halves the counts)')
    .option('--compat <comparia>', "reproduce compar:IA's figures (EcoLogits 0.8.2, integer sizes, WOR, PUE 1.2)")
    .action((raw: Record<string, unknown>) => {
      const flags = parseFlags(flagsSchema, raw);
      process.stdout.write(`${JSON.stringify(report(estimate(flags), flags))}\n`);
    });
}
