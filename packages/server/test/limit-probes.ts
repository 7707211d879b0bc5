import { randomBytes } from 'node:crypto';
import { vi } from 'vitest';
import { createSeededRandom } from '../src/domain/ranking';
import type { Runtime } from '../src/services/ports/runtime';
import { testCatalogueYaml } from './test-arena';

/**
 * The red team's probe of issue 31, generalised: a visitor sends a duel whose models are hidden,
 * then asks for more (a duel naming the costly model, a follow-up, random duels) until a limit
 * answers. Each scenario runs twice, once where the hidden duel holds the costly model and once
 * where it does not; everything the visitor sees of the answers (status, headers, body) must be the
 * same in both runs, or a limit tells who is in a duel. Shared by the in-process layer and the
 * socket level, which differ only in how a request reaches the arena.
 */

/** The catalogue's one costly model (`expensive: true`), as in the red team's run. */
export const COSTLY_MODEL = 'zephyrine-405b';

/**
 * The test catalogue with the costly model marked `expensive`, and timeouts no loaded machine
 * reaches: a side that timed out would be replaced or fail the turn, and the two runs would differ
 * by that rather than by a limit.
 */
export const probeCatalogueYaml = (baseUrl: string): string =>
  testCatalogueYaml(baseUrl, { firstTokenTimeoutMs: 60_000, totalTimeoutMs: 120_000 }).replace(
    `  - id: ${COSTLY_MODEL}\n`,
    `  - id: ${COSTLY_MODEL}\n    expensive: true\n`,
  );

export interface ProbeResponse {
  status: number;
  headers: Headers;
  json: any;
}

/** One visitor (its own cookie; at the socket level, its own address too when the scenario says so). */
export interface ProbeVisitor {
  request(method: string, path: string, body?: unknown): Promise<ProbeResponse>;
  /** Reads a turn's stream to its end. */
  stream(duelId: string, turn: number): Promise<unknown>;
}

/** An arena the probe runs against, with its draws steered and its store readable. */
export interface ProbeTarget {
  visitor(): ProbeVisitor;
  /** The random numbers the next draw takes, in order (then the source's own). */
  steer(values: readonly number[]): void;
  /** The two models of a duel, read from the store: the probe's premise, never shown to the visitor. */
  modelsOf(duelId: string): Promise<[string, string]>;
}

/** The system's clock (frozen by a run) and ids; draws take the numbers a run steers them to, then a seeded source. */
export class SteeredRuntime implements Runtime {
  private readonly steered: number[] = [];
  private readonly source = createSeededRandom(31);

  now = (): Date => new Date();
  newId = (): string => randomBytes(16).toString('base64url');
  random = (): number => this.steered.shift() ?? this.source.nextDouble();

  steer(values: readonly number[]): void {
    this.steered.push(...values);
  }
}

type DuelBody = { prompt: string; mode?: string; models?: string[] };

export type ProbeStep =
  /** The duel whose models the probe tries to learn, drawn as the run says. */
  | { hidden: DuelBody }
  | { create: DuelBody }
  /** A follow-up in the hidden duel, or in the last duel created. */
  | { followUp: 'hidden' | 'last'; prompt: string }
  /** The clock moves on (the limiter's windows with it). */
  | { waitS: number };

export interface ProbeScenario {
  limit: string;
  environment: Record<string, string>;
  /** A script without cookies: every new duel comes from a new visitor (follow-ups from the duel's own). */
  newVisitorPerDuel: boolean;
  /** The draw of the hidden duel: with the costly model, and without it (catalogue order, uniform draws, then the coin). */
  steering: { holds: number[]; without: number[] };
  steps: ProbeStep[];
  /** The statuses the visitor gets, step by step, in both runs: what the budget and the limits are meant to answer. */
  statuses: number[];
}

/** What a visitor sees of one answer: its status, its headers but the date and cookie, and its body with ids blanked. */
export interface Observed {
  step: string;
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const chars = (count: number, letter = 'x') => letter.repeat(count);
const costlyPair = [COSTLY_MODEL, 'miravel-24b'];
const cheapPair = ['miravel-24b', 'kestrix-8b'];
/** Catalogue order: zephyrine (costly), brontal, miravel, kestrix, sollary, ombrel. */
const RANDOM_DRAW = { holds: [0, 0.99, 0.25], without: [0.99, 0.99, 0.25] };
/** Custom mode naming miravel: the rival is drawn among the five others. */
const RIVAL_OF_MIRAVEL = { holds: [0, 0, 0.25], without: [0, 0.99, 0.25] };

/**
 * The budget for costly models: 1,500 characters an hour. The hidden duel may draw the costly model:
 * its 1,000 characters are charged whoever is drawn, so naming the costly model with 1,000 more is
 * refused, and so is a follow-up of the hidden duel; a random duel past the budget is drawn among
 * the others (201, uncharged, and so are its follow-ups); 400 characters still fit, 200 more do not.
 */
const COSTLY_BUDGET_STATUSES = [201, 429, 429, 201, 201, 201, 429, 201];
const costlyBudgetSteps = (hidden: DuelBody): ProbeStep[] => [
  { hidden },
  { waitS: 60 },
  { create: { mode: 'custom', models: costlyPair, prompt: chars(1000, 'p') } },
  { followUp: 'hidden', prompt: 'Et ensuite ?' },
  { create: { mode: 'random', prompt: chars(1000, 'r') } },
  { followUp: 'last', prompt: 'Et ensuite ?' },
  { create: { mode: 'custom', models: [COSTLY_MODEL], prompt: chars(400, 'c') } },
  { waitS: 60 },
  { create: { mode: 'custom', models: costlyPair, prompt: chars(200, 'd') } },
  { create: { mode: 'custom', models: cheapPair, prompt: chars(1000, 'e') } },
];

/** The prompts limit (new duels and follow-ups alike): 4 an hour, then 429 for any prompt. */
const PROMPT_STATUSES = [201, 201, 201, 201, 429, 429, 429];
const promptSteps: ProbeStep[] = [
  { hidden: { mode: 'random', prompt: 'Bonjour' } },
  { waitS: 60 },
  { followUp: 'hidden', prompt: 'Et ensuite ?' },
  { create: { mode: 'custom', models: costlyPair, prompt: 'Une question' } },
  { create: { mode: 'random', prompt: 'Une autre' } },
  { waitS: 60 },
  { create: { mode: 'random', prompt: 'Encore une' } },
  { followUp: 'hidden', prompt: 'Et encore ?' },
  { create: { mode: 'custom', models: costlyPair, prompt: 'Une dernière' } },
];

const NO_PROMPT_LIMIT = { AGORA_LIMIT_PROMPTS_PER_HOUR: '0', AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS: '0' };

/** Every limit a visitor can hit on the way to a model: the budget for costly models and the prompts, per visitor and per address. */
export const PROBE_SCENARIOS: ProbeScenario[] = [
  {
    limit: 'costly-model budget per visitor, after a random duel',
    environment: {
      ...NO_PROMPT_LIMIT,
      AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR: '1500',
      AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR_PER_ADDRESS: '0',
    },
    newVisitorPerDuel: false,
    steering: RANDOM_DRAW,
    steps: costlyBudgetSteps({ mode: 'random', prompt: chars(1000, 'h') }),
    statuses: COSTLY_BUDGET_STATUSES,
  },
  {
    limit: 'costly-model budget per visitor, after a duel against a drawn rival',
    environment: {
      ...NO_PROMPT_LIMIT,
      AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR: '1500',
      AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR_PER_ADDRESS: '0',
    },
    newVisitorPerDuel: false,
    steering: RIVAL_OF_MIRAVEL,
    steps: costlyBudgetSteps({ mode: 'custom', models: ['miravel-24b'], prompt: chars(1000, 'h') }),
    statuses: COSTLY_BUDGET_STATUSES,
  },
  {
    limit: 'costly-model budget per address, a new visitor for every duel',
    environment: {
      ...NO_PROMPT_LIMIT,
      AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR: '0',
      AGORA_LIMIT_EXPENSIVE_CHARS_PER_HOUR_PER_ADDRESS: '1500',
    },
    newVisitorPerDuel: true,
    steering: RANDOM_DRAW,
    steps: costlyBudgetSteps({ mode: 'random', prompt: chars(1000, 'h') }),
    statuses: COSTLY_BUDGET_STATUSES,
  },
  {
    limit: 'prompts per visitor',
    environment: { AGORA_LIMIT_PROMPTS_PER_HOUR: '4', AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS: '0' },
    newVisitorPerDuel: false,
    steering: RANDOM_DRAW,
    steps: promptSteps,
    statuses: PROMPT_STATUSES,
  },
  {
    limit: 'prompts per address, a new visitor for every duel',
    environment: { AGORA_LIMIT_PROMPTS_PER_HOUR: '0', AGORA_LIMIT_PROMPTS_PER_HOUR_PER_ADDRESS: '4' },
    newVisitorPerDuel: true,
    steering: RANDOM_DRAW,
    steps: promptSteps,
    statuses: PROMPT_STATUSES,
  },
];

/** Headers that differ between any two requests, whatever the limits do. */
const VARYING_HEADERS = new Set(['date', 'set-cookie', 'x-request-id']);

function observed(step: string, response: ProbeResponse): Observed {
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !VARYING_HEADERS.has(name)));
  const body =
    response.json && typeof response.json === 'object' && 'id' in response.json ? { ...response.json, id: '(a duel id)' } : response.json;
  return { step, status: response.status, headers, body };
}

function describeStep(step: ProbeStep): string {
  if ('waitS' in step) return `wait ${step.waitS} s`;
  if ('followUp' in step) return `follow-up in the ${step.followUp} duel (${step.prompt.length} characters)`;
  const body = 'hidden' in step ? step.hidden : step.create;
  const what = `${body.mode ?? 'random'}${body.models ? ` [${body.models.join(', ')}]` : ''} (${body.prompt.length} characters)`;
  return 'hidden' in step ? `hidden duel: ${what}` : `new duel: ${what}`;
}

/**
 * Runs a scenario's steps on a clock that moves only when a step waits (Date is frozen: the
 * limiter's windows and Retry-After then depend on the steps alone). Returns what the visitor saw,
 * and the hidden duel's models (the run's premise).
 */
export async function runProbe(
  target: ProbeTarget,
  scenario: ProbeScenario,
  holdsCostly: boolean,
): Promise<{ observed: Observed[]; hiddenModels: [string, string] | undefined }> {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-06-01T12:00:00.000Z') });
  try {
    const seen: Observed[] = [];
    const owners = new Map<string, ProbeVisitor>();
    const duels: { hidden?: string; last?: string } = {};
    let visitor = target.visitor();
    for (const step of scenario.steps) {
      if ('waitS' in step) {
        vi.setSystemTime(Date.now() + step.waitS * 1000);
        continue;
      }
      if ('followUp' in step) {
        const duelId = duels[step.followUp]!;
        const response = await owners.get(duelId)!.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: step.prompt });
        seen.push(observed(describeStep(step), response));
        if (response.status === 201) await owners.get(duelId)!.stream(duelId, response.json.turn as number);
        continue;
      }
      if (scenario.newVisitorPerDuel) visitor = target.visitor();
      if ('hidden' in step) target.steer(holdsCostly ? scenario.steering.holds : scenario.steering.without);
      const response = await visitor.request('POST', '/api/v1/duels', 'hidden' in step ? step.hidden : step.create);
      seen.push(observed(describeStep(step), response));
      if (response.status !== 201) continue;
      const duelId = response.json.id as string;
      owners.set(duelId, visitor);
      await visitor.stream(duelId, 1);
      duels.last = duelId;
      if ('hidden' in step) duels.hidden = duelId;
    }
    return { observed: seen, hiddenModels: duels.hidden ? await target.modelsOf(duels.hidden) : undefined };
  } finally {
    vi.useRealTimers();
  }
}
