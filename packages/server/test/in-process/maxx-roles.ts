import { judgedReplyText } from '../../src/adapters/maxx-steps';
import type { ModelCallOptions } from '../../src/providers/spec';
import type { MaxxRoleModel, MaxxRoles } from '../../src/services/maxx/maxx-roles';
import { MaxxService, type MaxxSettings } from '../../src/services/maxx/maxx.service';
import { OPTIMAL, passingCritic } from '../maxx-fixture';
import type { InProcessArena, ModelScript } from './harness';
import { TEST_MODELS } from '../test-arena';
import { screeningService } from './screening';

/**
 * The optimised set in process: its service on the arena's in-memory store and test clock, its role
 * models scripted (honest unless a test says: the writer's reply is the optimal one, the reviewer
 * finds no defect, the critic passes it, the judge prefers it wherever it stands), and one screened
 * duel that makes two items: its vote (arena-general) and a dislike of side b (reactions). A file
 * shares one arena; each test runs its own set of role models.
 */

/** The role models of one run: a test's own set, so that no test reads another's outcomes or cached calls (another run key). */
export interface RoleIds {
  generator: string;
  reviewer: string;
  critic: string;
  /** A panel of up to three judges; a run takes the first `judges` of them. */
  judges: readonly [string, string, string];
}

let sets = 0;

export const PROMPT = 'Bonjour, explique la photosynthèse en deux phrases pour mon cours.';
/** The duel's two replies: side a is the one voted for, side b the one disliked. */
export const ORIGINALS: [string, string] = [
  'La photosynthèse est la fabrication de sucre par les plantes, avec la lumière.',
  'Les plantes mangent de la terre pour grandir, et la lumière les réchauffe.',
];

/** The last message a model was sent: for the structured steps, what it reads (the judge's two replies, the critic's step). */
export const lastMessage = (options: ModelCallOptions): string => options.messages.at(-1)?.content ?? '';

/** A judge's verdict, reasons first, as the judge step asks. */
export const verdict = (better: 'A' | 'B' | 'tie'): ModelScript => ({ answer: JSON.stringify({ reasons: 'compared', better }) });

/** The honest judge: it reads the two replies and prefers the optimal one, wherever it is shown. */
export function honestVerdict(options: ModelCallOptions): ModelScript {
  return verdict(judgedReplyText(lastMessage(options), 'A').includes(OPTIMAL) ? 'A' : 'B');
}

/** A new set of role models, each answering as a sound model would. */
export function honestRoles(harness: InProcessArena): RoleIds {
  const set = ++sets;
  const roles: RoleIds = {
    generator: `maxx-writer-${set}`,
    reviewer: `maxx-reviewer-${set}`,
    critic: `maxx-critic-${set}`,
    judges: [`maxx-judge-a-${set}`, `maxx-judge-b-${set}`, `maxx-judge-c-${set}`],
  };
  const { models } = harness;
  models.respond(roles.generator, () => ({ answer: OPTIMAL }));
  models.respond(roles.reviewer, () => ({ answer: JSON.stringify({ defects: [] }) }));
  models.respond(roles.critic, (options) => ({
    answer: lastMessage(options).startsWith('Compare the content') ? JSON.stringify({ same_content: true }) : passingCritic,
  }));
  for (const judge of roles.judges) models.respond(judge, honestVerdict);
  return roles;
}

export interface MaxxUnderTest {
  service: MaxxService;
  /** The waits between attempts of a call, in ms: slept on the test clock, which they move on. */
  waits: number[];
}

/**
 * A worker of the optimised set on the arena's store, with these role models (the generator also
 * styles) and the first `judges` judges as its panel. Two workers made here are two processes
 * sharing the store (each claims items under its own name).
 */
export function maxxWorker(
  harness: InProcessArena,
  ids: RoleIds,
  options: { judges?: number; settings?: Partial<MaxxSettings> } = {},
): MaxxUnderTest {
  const role = (id: string): MaxxRoleModel => ({ id, client: harness.models.clientNamed(id) });
  const roles: MaxxRoles = {
    generator: role(ids.generator),
    reviewer: role(ids.reviewer),
    critic: role(ids.critic),
    stylist: role(ids.generator),
    judges: ids.judges.slice(0, options.judges ?? 1).map(role),
  };
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    harness.runtime.advance(ms);
    return Promise.resolve();
  };
  return { service: new MaxxService(harness.arena.store, roles, options.settings ?? {}, harness.runtime, sleep), waits };
}

/** Plays the duel, dislikes side b, votes for side a (a vote closes the duel to reactions) and screens it: two eligible items. */
export async function screenedDuel(harness: InProcessArena): Promise<string> {
  const [first, second] = TEST_MODELS.map((model) => model.id) as [string, string];
  harness.models.script(first, { answer: ORIGINALS[0] });
  harness.models.script(second, { answer: ORIGINALS[1] });
  const visitor = harness.visitor();
  const { id } = await visitor.playedDuel([first, second], PROMPT);
  const dislike = { side: 'b', turn: 1, value: 'dislike', tags: ['incorrect'] };
  for (const [path, body] of [
    ['reactions', dislike],
    ['vote', { choice: 'a' }],
  ] as const) {
    const answer = await visitor.request('POST', `/api/v1/duels/${id}/${path}`, body);
    if (answer.status !== 200) throw new Error(`${path} refused: ${JSON.stringify(answer.json)}`);
  }
  await screeningService(harness, { withModel: false }).runDue(10);
  return id;
}

/** The outcomes a run recorded, by subset: status, reason and the row's strength. */
export async function outcomesOf(harness: InProcessArena, service: MaxxService): Promise<Record<string, unknown>> {
  const records = await harness.arena.store.maxx.listItems(service.runKey);
  return Object.fromEntries(
    records.map((record) => [record.subset, { status: record.status, reason: record.reason, strength: record.row?.pref_strength ?? null }]),
  );
}
