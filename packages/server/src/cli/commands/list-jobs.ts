import type { Command } from 'commander';
import { ConfigError, loadConfig } from '../../config/config';
import { ARENA_EVENTS, SERVICE_LISTENERS } from '../../jobs/arena-events';
import type { JobPlan } from '../../jobs/job';
import { planJobs } from '../../jobs/registry';
import { CliUsageError } from '../cli-error';

/** `agora jobs`: the background jobs `agora serve` runs with this environment, and the events that start them. */
export function registerJobsCommand(program: Command): void {
  program
    .command('jobs')
    .description('list the background jobs of the arena with this configuration: what each does, when it runs, its lease')
    .option('--json', 'one JSON object per job instead of text')
    .action((flags: { json?: boolean }) => {
      let plans: JobPlan[];
      try {
        plans = planJobs(loadConfig(process.env));
      } catch (error) {
        if (error instanceof ConfigError) throw new CliUsageError(error.message);
        throw error;
      }
      process.stdout.write(flags.json ? plans.map((plan) => `${JSON.stringify(plan)}\n`).join('') : describeJobs(plans));
    });
}

/** The jobs as text an operator reads: one paragraph per job, then which job each event starts. */
export function describeJobs(plans: readonly JobPlan[]): string {
  const jobs = plans.map((plan) =>
    [
      `${plan.name}${plan.off === null ? '' : ` (off: ${plan.off})`}`,
      `  does:  ${plan.purpose}`,
      `  runs:  ${plan.schedule}`,
      ...(plan.on.length ? [`  on:    ${plan.on.join(', ')}`] : []),
      ...(plan.emits.length ? [`  emits: ${plan.emits.join(', ')}`] : []),
      `  where: ${plan.lease === null ? 'every instance' : `one instance at a time (lease "${plan.lease}")`}`,
    ].join('\n'),
  );
  const events = ARENA_EVENTS.map((event) => {
    const listeners = [
      ...plans.filter((plan) => plan.off === null && plan.on.includes(event)).map((plan) => plan.name),
      ...(SERVICE_LISTENERS[event] ?? []),
    ];
    return `  ${event} → ${listeners.length ? listeners.join(', ') : '(nothing listens)'}`;
  });
  return `${jobs.join('\n\n')}\n\nevents\n${events.join('\n')}\n`;
}
