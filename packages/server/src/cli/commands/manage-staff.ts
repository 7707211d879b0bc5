import { type StaffRole, staffInviteRequestSchema } from '@agora/contract';
import type { Command } from 'commander';
import { z } from 'zod';
import type { ConsoleServices } from '../../http/routes/console';
import { CliUsageError, asUsageError, parseFlags, reportingUsageErrors } from '../cli-error';

const roleFlags = z.object({ role: z.enum(['admin', 'reviewer'], { message: '--role takes admin or reviewer' }) });

/** The console's services over the store of DATABASE_URL, closed after `work`. */
async function withConsole<T>(work: (services: ConsoleServices) => Promise<T>): Promise<T> {
  const [{ openStore }, { loadConfig }, { createConsoleServices }, { systemRuntime }] = await Promise.all([
    import('../../main'),
    import('../../config/config'),
    import('../../composition/console-services'),
    import('../../services/ports/runtime'),
  ]);
  const config = asUsageError(() => loadConfig(process.env));
  const store = await openStore(config);
  try {
    return await work(createConsoleServices({ config, store, runtime: systemRuntime }));
  } finally {
    await store.close();
  }
}

function emailOf(raw: string): string {
  const parsed = staffInviteRequestSchema.shape.email.safeParse(raw);
  if (!parsed.success) throw new CliUsageError(`EMAIL: not an e-mail address (${JSON.stringify(raw)})`);
  return parsed.data;
}

/**
 * `agora staff add EMAIL --role admin|reviewer`: a console account and its one-time sign-in link
 * (printed once: the store keeps its hash); `agora staff list`; `agora staff revoke EMAIL` ends a
 * member's sessions; `agora staff disable EMAIL`.
 */
export function registerStaffCommand(program: Command): void {
  const staff = program.command('staff').description("the operator's console: staff accounts and their sessions");
  reportingUsageErrors(staff.command('add'))
    .description('adds a console member (or changes their role) and prints a one-time sign-in link')
    .argument('<EMAIL>', 'their e-mail address (their sign-in name)')
    .requiredOption('--role <ROLE>', 'admin (runs the arena) or reviewer (reviews conversations and votes)')
    .action(async (rawEmail: string, raw: Record<string, unknown>) => {
      const email = emailOf(rawEmail);
      const role: StaffRole = parseFlags(roleFlags, raw).role;
      const invited = await withConsole((services) => services.staff.invite(email, role));
      process.stdout.write(`${invited.email} (${invited.role}): sign in once, before ${invited.expires_at}, at\n${invited.link}\n`);
    });
  reportingUsageErrors(staff.command('list'))
    .description('lists the console members, their roles and live sessions (JSON lines)')
    .action(async () => {
      const list = await withConsole((services) => services.staff.list());
      for (const member of list.staff) process.stdout.write(`${JSON.stringify(member)}\n`);
    });
  for (const [verb, description] of [
    ['revoke', "ends all of a member's sessions (a lost laptop)"],
    ['disable', 'ends their sessions and refuses their sign-ins until added again'],
  ] as const) {
    reportingUsageErrors(staff.command(verb))
      .description(description)
      .argument('<EMAIL>', 'their e-mail address')
      .action(async (rawEmail: string) => {
        const email = emailOf(rawEmail);
        const message = await withConsole(async (services) => {
          const member = (await services.staff.list()).staff.find((entry) => entry.email === email);
          if (!member) throw new CliUsageError(`EMAIL: no console member ${email}`);
          if (verb === 'revoke') return `${email}: ${await services.staff.revokeSessions(member.id)} session(s) ended`;
          await services.staff.disable(member.id, 'cli');
          return `${email}: disabled`;
        });
        process.stdout.write(`${message}\n`);
      });
  }
}
