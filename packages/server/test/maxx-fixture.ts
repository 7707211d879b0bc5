import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { judgedReplyText } from '../src/adapters/maxx-steps';
import { toolModelYaml } from './annotator-fixture';
import type { TestArena } from './test-arena';

/**
 * The role models of the optimised set as the tests' fake upstream plays them: real models'
 * answers (structured JSON, a judge that reads the two replies it is shown), the flags and ids that
 * name them, and readers of a written set.
 */

/** The role models of one set; each test has its own set, so that no test reuses another's cached calls. */
export const rolesOf = (set: string) =>
  ({ generator: `maxx-writer${set}`, reviewer: `maxx-reviewer${set}`, critic: `maxx-critic${set}`, judge: `maxx-judge${set}` }) as const;
export const OPTIMAL = 'Voici la réponse optimale, complète et exacte.';

/** The generator's reply: the optimal one, of its own conversation (two conversations get two replies, as from a real model). */
export const optimalFor = (prompt: string) => `${OPTIMAL} (${prompt.slice(0, 24)})`;

/** The judge reads the two replies it is shown and prefers the optimal one, wherever it stands; its reasons come first. */
export function judgeAnswer(userMessage: string): string {
  return JSON.stringify({ reasons: 'more complete', better: judgedReplyText(userMessage, 'A').includes(OPTIMAL) ? 'A' : 'B' });
}

/** The role ids of a set as `createMaxxService` takes them: one judge, the generator as stylist unless said. */
export const idsOf = (roles: ReturnType<typeof rolesOf>, stylist: string = roles.generator) => ({
  generator: roles.generator,
  reviewer: roles.reviewer,
  critic: roles.critic,
  judges: [roles.judge],
  stylist,
});

/** Every row of a subset of a set written in `directory`, all languages (one folder each), in language order. */
export function subsetRows(directory: string, subset: string): Record<string, unknown>[] {
  const folder = join(directory, subset);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .sort()
    .flatMap((language) => jsonl(join(folder, language, 'train.jsonl')));
}

export const passingCritic = JSON.stringify({
  correct: true,
  complete: true,
  follows_instructions: true,
  right_language: true,
  no_invented_facts: true,
  fixes_defect: true,
  complaint: 'partly',
  notes: 'fine',
});

/**
 * How the fake answers each role, as real models would: the writer its reply, the reviewer no
 * defect, the critic a passing rubric (and the same content for a style check), the judge the
 * reply it reads as the better one. `delayMs` slows the writer and the critic down (for kills).
 */
export function scriptRoles(harness: TestArena, roles: ReturnType<typeof rolesOf>, delayMs: number): void {
  harness.fake.behave(`tools/${roles.generator}`, { tokensPerSecond: 0, firstTokenDelayMs: delayMs, text: optimalFor });
  harness.fake.behave(`tools/${roles.reviewer}`, { tokensPerSecond: 0, text: JSON.stringify({ defects: [] }) });
  harness.fake.behave(`tools/${roles.critic}`, {
    tokensPerSecond: 0,
    firstTokenDelayMs: delayMs,
    text: (prompt) => (prompt.startsWith('Compare the content') ? JSON.stringify({ same_content: true }) : passingCritic),
  });
  harness.fake.behave(`tools/${roles.judge}`, { tokensPerSecond: 0, text: judgeAnswer });
}

/** The role flags of `agora maxx` for a set of role models. */
export const roleFlags = (roles: ReturnType<typeof rolesOf>) => [
  '--generator',
  roles.generator,
  '--reviewer',
  roles.reviewer,
  '--critic',
  roles.critic,
  '--judge',
  roles.judge,
];

/** The `agora:` lines of a command's stderr (its errors), without its warnings. */
export const errorLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('agora:'))
    .join('\n');

export const jsonl = (path: string): Record<string, unknown>[] =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** A catalogue entry for each role model id, served by the fake upstream at `tools/<id>`. */
export const toolModelsYaml = (baseUrl: string, ids: readonly string[], extra: (id: string) => string = () => ''): string =>
  ids.map((id) => toolModelYaml(id, baseUrl, `tools/${id}`, extra(id))).join('');
