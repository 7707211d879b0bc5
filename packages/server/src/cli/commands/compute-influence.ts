import type { Command } from 'commander';
import { z } from 'zod';
import type { InfluenceReport } from '../../domain/ranking/influence';
import type { InfluenceGrouping } from '../../services/rank-influence';
import { CliUsageError, parseFlags, reportingUsageErrors } from '../cli-error';

/** Where the report comes from: the store of DATABASE_URL, loaded only when asked for. */
export type InfluenceSource = (by: InfluenceGrouping, top: number, includeFlagged: boolean) => Promise<InfluenceReport>;

const flagsSchema = z.object({
  model: z.string().min(1, '--model takes a model id').optional(),
  by: z.enum(['visitor', 'address'], { error: '--by takes visitor or address' }).optional(),
  top: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, '--top takes a whole number of groups from 1 to 9999')
    .transform(Number)
    .optional(),
  format: z.enum(['json', 'table'], { error: '--format takes json or table' }).optional(),
  includeFlagged: z.boolean().optional(),
});

const round = (value: number) => Math.round(value * 100) / 100;

/** The report as JSON (docs/cli.md#agora-influence), limited to `model` when given. */
export function influenceJson(report: InfluenceReport, by: InfluenceGrouping, model?: string) {
  const models = report.models.filter((entry) => model === undefined || entry.model === model);
  return {
    by,
    groups: report.groups,
    undefined_groups: report.undefinedGroups,
    alert_rule: { half_width_share: report.alertRule.halfWidthShare, points: report.alertRule.points },
    models: models.map((entry) => ({
      model: entry.model,
      rating: round(entry.rating),
      half_width: round(entry.halfWidth),
      groups: entry.groups.map((group) => ({
        group: group.group,
        points: round(group.points),
        votes: group.votes,
        votes_on_model: group.votesOnModel,
        rank_before: group.rankBefore,
        rank_after: group.rankAfter,
        alert: group.alert,
      })),
    })),
    alerts: report.alerts
      .filter((alert) => model === undefined || alert.model === model)
      .map((alert) => ({ ...alert, points: round(alert.points) })),
    plans: report.plans.filter((plan) => model === undefined || plan.higher === model || plan.lower === model),
  };
}

function influenceTable(report: InfluenceReport, by: InfluenceGrouping, model?: string): string {
  const lines = [
    `${report.groups} ${by} groups · alert when one moves a model by more than ${report.alertRule.halfWidthShare} of its half-width or ${report.alertRule.points} points`,
  ];
  for (const entry of report.models.filter((candidate) => model === undefined || candidate.model === model)) {
    lines.push('', `${entry.model}  ${entry.rating.toFixed(1)} ± ${entry.halfWidth.toFixed(1)}`);
    for (const group of entry.groups) {
      const rank = group.rankAfter === group.rankBefore ? '' : `  rank ${group.rankBefore} → ${group.rankAfter}`;
      const change = `${group.points >= 0 ? '+' : ''}${group.points.toFixed(2)}`.padStart(9);
      lines.push(
        `  ${change}  ${group.group.slice(0, 16).padEnd(16)}  ${group.votes} votes, ${group.votesOnModel} on it${rank}${group.alert ? '  ALERT' : ''}`,
      );
    }
  }
  const plans = report.plans.filter((plan) => model === undefined || plan.higher === model || plan.lower === model);
  if (plans.length > 0) lines.push('', 'overlapping neighbours: more votes to separate them at 95 %');
  for (const plan of plans) {
    lines.push(
      `  ${plan.higher} / ${plan.lower}: gap ${plan.gapPoints.toFixed(1)} < ${plan.overlapPoints.toFixed(1)}; ${plan.votesBetween ?? '–'} between them, or ${plan.votesSpread ?? '–'} spread`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `agora influence`: which visitors or addresses move each model's rating most (docs/ranking.md#rank-influence). */
export function registerInfluenceCommand(program: Command, source: InfluenceSource): void {
  reportingUsageErrors(program.command('influence'))
    .description('the visitors or address hashes whose votes move each rating most if left out, on the store (DATABASE_URL) main board')
    .option('--model <id>', 'only this model')
    .option('--by <grouping>', 'visitor | address (default visitor)')
    .option('--top <N>', 'groups per model (default 10)')
    .option('--format <format>', 'json | table (default table)')
    .option('--include-flagged', 'count the votes the integrity rules flag too (what a campaign they miss would do)')
    .action(async (raw: Record<string, unknown>) => {
      const flags = parseFlags(flagsSchema, raw);
      const by = flags.by ?? 'visitor';
      const report = await source(by, flags.top ?? 10, flags.includeFlagged ?? false);
      if (flags.model !== undefined && !report.models.some((entry) => entry.model === flags.model)) {
        throw new CliUsageError(
          `--model ${flags.model}: no such model on the main board (${report.models.map((entry) => entry.model).join(', ') || 'no votes'})`,
        );
      }
      if (flags.format === 'json') process.stdout.write(`${JSON.stringify(influenceJson(report, by, flags.model))}\n`);
      else process.stdout.write(influenceTable(report, by, flags.model));
    });
}
