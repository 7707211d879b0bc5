import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../src/config/catalogue';
import { loadConfig } from '../src/config/config';
import { MAXX_COLUMNS } from '../src/domain/maxx/maxx-rows';
import { wilsonInterval } from '../src/domain/maxx/maxx-calibration';
import { minReadingMs } from '../src/domain/maxx/maxx-people';
import { createMaxxService } from '../src/main';
import { createModelClient } from '../src/providers/create-model-client';
import { type MaxxRoles, MaxxService } from '../src/services/maxx/maxx.service';
import { systemRuntime } from '../src/services/ports/runtime';
import { DatasetExportService } from '../src/services/dataset-export.service';
import { toolModelYaml } from './annotator-fixture';
import { runAgora } from './run-agora';
import { DIALECTS } from './test-db';
import { ArenaClient, TEST_MODELS, type TestArena, startTestArena, testCatalogueYaml, until } from './test-arena';
import { subsetJsonl } from './export-files';
import {
  OPTIMAL,
  errorLines,
  idsOf,
  judgeAnswer,
  optimalFor,
  passingCritic,
  roleFlags,
  rolesOf,
  scriptRoles,
  subsetRows,
} from './maxx-fixture';
import { loadWithDatasets, pythonWithDatasets } from './python-datasets';
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * The optimised preference set over real HTTP: a store filled by real duels, votes and a dislike,
 * screened by the background job; role models answered by the fake upstream as real models would
 * (structured JSON, a judge that reads the two replies it is shown).
 */

const ROLE_SETS = [
  '',
  '-kill',
  '-workers',
  '-single',
  '-flaky',
  '-strict',
  '-down',
  '-priced',
  '-limited',
  '-tty',
  '-plain',
  '-calibrated',
  '-published',
  '-biased',
  '-cut',
  '-cutonce',
  '-split',
  '-agree',
  '-fix',
  '-outage',
  '-eligible',
  '-nofix',
  '-checked',
] as const;
/** Second judges of the panels: one that always calls a tie (a split panel), one that agrees with the first. */
const SECOND_JUDGES = { split: 'maxx-judge-b-split', agree: 'maxx-judge-b-agree' } as const;
const ROLES = rolesOf('');

function catalogueYaml(baseUrl: string): string {
  const tools = [...ROLE_SETS.flatMap((set) => Object.values(rolesOf(set))), ...Object.values(SECOND_JUDGES)].map((id) =>
    toolModelYaml(
      id,
      baseUrl,
      `tools/${id}`,
      id.endsWith('-priced')
        ? '    pricing:\n      input_per_million_usd: 1000000\n      output_per_million_usd: 0\n'
        : id.endsWith('-limited')
          ? '      max_concurrency: 2\n'
          : '',
    ),
  );
  return testCatalogueYaml(baseUrl) + tools.join('');
}

const agoraBin = fileURLToPath(new URL('../../../bin/agora', import.meta.url));

describe.each(DIALECTS)('agora maxx ($name)', (dialect) => {
  let harness: TestArena;
  let folder: string;
  let environment: Record<string, string>;
  const voted: { id: string; choice: string }[] = [];

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      catalogue: (baseUrl) => parseCatalogue(catalogueYaml(baseUrl), 'test-models.yaml', {}),
      environment: { AGORA_POSTPROCESS_EVERY_S: '0.1', AGORA_POSTPROCESS_IDLE_S: '0', AGORA_MAXX_CHECKS: '1' },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    // Each arena model answers with its size, so that the two replies of a duel differ and a judge can tell them apart.
    for (const model of TEST_MODELS)
      harness.fake.behave(model.upstream, { tokensPerSecond: 0, text: (prompt) => `Réponse ${model.params} : ${prompt}` });
    folder = mkdtempSync(join(tmpdir(), 'agora-maxx-'));
    writeFileSync(join(folder, 'models.yaml'), catalogueYaml(harness.fake.baseUrl));
    const location = harness.store.location;
    environment = {
      DATABASE_URL: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url,
      AGORA_MODELS: join(folder, 'models.yaml'),
    };
    const { client } = harness;
    for (const [prompt, choice] of [
      ['Explique la photosynthèse en deux phrases.', 'a'],
      ['Quelle est la capitale de l’Australie ?', 'both_bad'],
    ] as const) {
      const created = await client.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
      await client.stream(created.json.id);
      if (prompt.startsWith('Quelle')) {
        await client.request('POST', `/api/v1/duels/${created.json.id}/messages`, { prompt: 'Et sa population ?' });
        await client.stream(created.json.id, { turn: 2 });
      }
      const reaction = await client.request('POST', `/api/v1/duels/${created.json.id}/reactions`, {
        side: 'b',
        turn: 1,
        value: 'dislike',
        tags: ['incorrect'],
      });
      expect(reaction.status).toBe(200);
      expect((await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice })).status).toBe(200);
      voted.push({ id: created.json.id as string, choice });
    }
    for (const { id } of voted)
      await until(
        () => harness.arena.store.annotations.find(id),
        (found) => found?.status === 'done',
      );
    for (const set of ROLE_SETS) scriptRoles(harness, rolesOf(set), ['-kill', '-workers', '-limited'].includes(set) ? 150 : 0);
    harness.fake.behave(`tools/${SECOND_JUDGES.split}`, {
      tokensPerSecond: 0,
      text: JSON.stringify({ reasons: 'both are fine', better: 'tie' }),
    });
    harness.fake.behave(`tools/${SECOND_JUDGES.agree}`, { tokensPerSecond: 0, text: judgeAnswer });
  }, 60_000);
  afterAll(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });

  // Each test runs its own set of role models: another run key, so that no test depends on another's outcomes.
  const service = (roles: ReturnType<typeof rolesOf> = ROLES, stylist: string = roles.generator) =>
    createMaxxService(
      loadConfig({ DATABASE_URL: environment.DATABASE_URL!, AGORA_MODELS: environment.AGORA_MODELS! }),
      harness.arena.store,
      parseCatalogue(catalogueYaml(harness.fake.baseUrl), 'models.yaml', {}),
      idsOf(roles, stylist),
      { backoffMs: 1 },
    );

  it('writes the three subsets with the columns of the set, their provenance and the card’s figures from the files', async () => {
    const out = join(folder, 'first');
    const maxx = service();
    const toolRequests = () => harness.fake.requests.filter((request) => request.model.startsWith('tools/')).length;
    const before = toolRequests();
    const plan = await maxx.plan();
    expect(plan).toMatchObject({ items: 4, alreadyDone: 0, bySubset: { 'arena-general': 1, 'arena-both_bad': 1, reactions: 2 } });
    // The plan calls no model. Its stand-in reviewer finds a defect (a revision per turn) where this run's finds none:
    // the estimate is the run's calls plus one revision per turn processed (5 turns over the 4 items).
    expect(toolRequests()).toBe(before);
    expect(plan.estimatedTotalCostUsd).toBeNull();
    expect(plan.estimatedTokens.generator.input).toBeGreaterThan(0);
    const result = await maxx.run({ concurrency: 3 });
    expect(result).toMatchObject({ items: 4, kept: 4, unfinished: 0 });
    // Shared calls count once in the plan as in the run: the estimate is the calls sent plus the stand-in's revisions.
    expect(plan.estimatedCalls).toBe(result.calls - result.cachedCalls + 5);
    expect(await maxx.plan()).toMatchObject({ items: 4, alreadyDone: 4, estimatedCalls: 0 });
    // Content-addressed: the same request made for two items (the first turn of a voted duel and of its disliked answer) is paid once.
    expect(result.cachedCalls).toBeGreaterThan(0);
    expect(toolRequests() - before).toBe(result.calls - result.cachedCalls);
    const written = await maxx.assemble(out);
    expect(written.rows).toEqual({ 'arena-general': 1, 'arena-both_bad': 1, reactions: 2 });

    const general = subsetRows(out, 'arena-general');
    const bothBad = subsetRows(out, 'arena-both_bad');
    const reactions = subsetRows(out, 'reactions');
    expect(readdirSync(join(out, 'reactions'))).toEqual(['fr']);
    for (const row of [...general, ...bothBad, ...reactions]) {
      expect(Object.keys(row)).toEqual(MAXX_COLUMNS.map((column) => column.name));
      expect(row.response_optimal).toContain(OPTIMAL);
      const messages = row.messages as { role: string; content: string }[];
      expect(messages.at(-1)!.role).toBe('user');
      expect(row.prompt_chars).toBe([...messages.at(-1)!.content].length);
    }
    // The both-bad duel had a follow-up: its row ends on the second turn, with the optimal first reply as history.
    // One judge's win is medium; its rejected reply answered its own first reply, not the optimal one in `messages`.
    expect(bothBad[0]).toMatchObject({
      conversation_turns: 2,
      is_multi_turn: true,
      pref_strength: 'medium',
      source: 'arena',
      context_from: 'original',
      language: 'fr',
    });
    expect(general[0]).toMatchObject({ context_from: 'optimal', language: 'fr' });
    expect((bothBad[0]!.messages as { content: string }[]).map((message) => message.content)).toEqual([
      'Quelle est la capitale de l’Australie ?',
      optimalFor('Quelle est la capitale de l’Australie ?'),
      'Et sa population ?',
    ]);
    expect(bothBad[0]!.rejected).not.toBeNull();
    expect(bothBad[0]!.rejected_2).not.toBeNull();
    expect(bothBad[0]).toMatchObject({ incorrect: null, superficial: null, instructions_not_followed: null });
    expect(reactions.every((row) => row.rejected_2 === null && row.pref_strength === 'medium' && row.incorrect === true)).toBe(true);

    // Provenance: the ids of the open datasets' votes and reactions.
    const exported = join(folder, 'export');
    await new DatasetExportService(harness.arena.store.datasets, new Map(), { privateCohorts: [] }).export({
      outDir: exported,
      formats: ['jsonl'],
      datasets: ['votes', 'reactions'],
    });
    const pairIds = new Set(subsetJsonl(exported, 'votes').map((row) => `arena:${String(row.conversation_pair_id)}`));
    const reactionIds = new Set(subsetJsonl(exported, 'reactions').map((row) => `reactions:${String(row.id)}`));
    for (const row of [...general, ...bothBad]) expect(pairIds.has(String(row.id))).toBe(true);
    for (const row of reactions) expect(reactionIds.has(String(row.id))).toBe(true);

    const card = readFileSync(written.cardPath, 'utf8');
    expect(card).toContain('| `arena-general` | 1 | 1 | 1 | 0 | 1 | 0 | 0 |');
    expect(card).toContain('| `reactions` | 2 | 2 | 0 | 0 | 2 | 0 | 0 |');
    expect(card).toContain('| total | 4 | 4 | 2 | 0 | 4 | 0 | 0 |');
    expect(card).toMatch(/Position consistency: 100\.0 % of 6 judgements/);
    expect(card).toContain('rows say `context_from = "original"`');
    expect(card).toMatch(/1 of 4 rows say `context_from = "original"`/);
  });

  it('pays for no call again: a repeated run makes no request and writes the same rows', async () => {
    const maxx = service(ROLES, ROLES.reviewer);
    await maxx.run();
    const before = harness.fake.requests.length;
    const result = await maxx.run();
    expect(result).toMatchObject({ items: 4, kept: 0, calls: 0 });
    expect(harness.fake.requests.length).toBe(before);
    const again = join(folder, 'again');
    await maxx.assemble(again);
    await maxx.assemble(join(folder, 'again-2'));
    for (const subset of ['arena-general', 'arena-both_bad', 'reactions'])
      expect(
        readFileSync(join(again, subset, 'fr', 'train.jsonl')).equals(readFileSync(join(folder, 'again-2', subset, 'fr', 'train.jsonl'))),
      ).toBe(true);
  });

  it('refuses bad input with one line and exit code 2', async () => {
    const roles = ['--generator', ROLES.generator, '--critic', ROLES.critic, '--judge', ROLES.judge];
    const unknown = await runAgora(['maxx', '--out', join(folder, 'x'), ...roles, '--reviewer', 'no-such-model'], '', environment);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toMatch(/^agora: --reviewer: no model "no-such-model" in the catalogue/);
    const same = await runAgora(['maxx', '--out', join(folder, 'x'), ...roles, '--reviewer', ROLES.generator], '', environment);
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/^agora: --reviewer: the reviewer must be another model than the generator/);
    // A judge that wrote the replies it judges prefers its own writing: refused, naming the clash.
    const selfJudging = [...roleFlags(ROLES).slice(0, 6), '--judge', `${ROLES.judge},${ROLES.generator}`];
    const judgesItself = await runAgora(['maxx', '--out', join(folder, 'x'), ...selfJudging], '', environment);
    expect(judgesItself).toMatchObject({ code: 2, stdout: '' });
    expect(judgesItself.stderr).toMatch(new RegExp(`^agora: --judge: "${ROLES.generator}" is also the generator`));
    const twice = await runAgora(
      ['maxx', '--out', join(folder, 'x'), ...roleFlags(ROLES).slice(0, 6), '--judge', `${ROLES.judge},${ROLES.judge}`],
      '',
      environment,
    );
    expect(twice.stderr).toMatch(/^agora: --judge: ".*" is listed twice/);
    const file = join(folder, 'models.yaml');
    const outFile = await runAgora(['maxx', '--out', file, ...roles, '--reviewer', ROLES.reviewer], '', environment);
    expect(outFile.code).toBe(2);
    expect(outFile.stderr).toMatch(/^agora: --out: .* is a file, not a folder/);
  }, 60_000);

  it('resumes after kill -9: every item once, and no call already answered is paid again', async () => {
    const out = join(folder, 'killed');
    const roles = rolesOf('-kill');
    const flags = [...roleFlags(roles), '--lease', '1'];
    const started = harness.fake.requests.length;
    const child = spawn(agoraBin, ['maxx', '--out', out, ...flags, '--concurrency', '1'], {
      env: { ...process.env, ...environment },
      stdio: 'ignore',
    });
    await untilAnswered(started, 6);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const beforeKill = harness.fake.requests.slice(started);
    const answered = new Set(
      beforeKill.filter((request) => request.completed).map((request) => JSON.stringify([request.model, request.body.messages])),
    );
    // The killed run's claims expire after their lease (1 s); then its items are taken over.
    const resumed = await runAgora(['maxx', '--out', out, ...flags, '--concurrency', '2'], '', environment);
    expect(resumed.stderr.split('\n').filter((line) => line.startsWith('agora:'))).toEqual([]);
    expect(resumed.code).toBe(0);
    const after = harness.fake.requests.slice(started + beforeKill.length);
    expect(after.length).toBeGreaterThan(0);
    // With one item at a time, at most the one call in flight at the kill (answered by the fake, not yet stored) is sent again.
    expect(after.filter((request) => answered.has(JSON.stringify([request.model, request.body.messages]))).length).toBeLessThanOrEqual(1);
    const ids = ['arena-general', 'arena-both_bad', 'reactions'].flatMap((subset) => subsetRows(out, subset).map((row) => row.id));
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
    // Finished: the same command again makes no call at all.
    const requestsBefore = harness.fake.requests.length;
    expect((await runAgora(['maxx', '--out', out, ...flags], '', environment)).code).toBe(0);
    expect(harness.fake.requests.length).toBe(requestsBefore);
  }, 90_000);

  it('shares the items between two workers, takes a killed worker’s item over after its lease, and makes the set one worker makes', async () => {
    const out = join(folder, 'workers');
    const roles = rolesOf('-workers');
    // The reactions subset: one item per conversation here, so that no two items ask the same thing and
    // every request the fake saw belongs to one item.
    const flags = [...roleFlags(roles), '--subset', 'reactions'];
    const started = harness.fake.requests.length;
    const worker = () =>
      spawn(agoraBin, ['maxx', '--worker', '--lease', '1', '--concurrency', '1', ...flags], {
        env: { ...process.env, ...environment },
        stdio: 'pipe',
      });
    const first = worker();
    const second = worker();
    let secondOutput = '';
    second.stdout.on('data', (chunk: Buffer) => (secondOutput += chunk.toString()));
    await untilAnswered(started, 4);
    first.kill('SIGKILL');
    const secondCode = await new Promise<number | null>((resolve) => second.once('exit', resolve));
    expect(secondCode).toBe(0);
    expect(JSON.parse(secondOutput)).toMatchObject({ items: 2, unfinished: 0 });
    // No item ran in both workers, and the killed worker's answered calls were not asked again: only its one call in
    // flight (answered by the fake, not yet stored) may have been.
    const asked = harness.fake.requests
      .slice(started)
      .filter((request) => request.completed)
      .map((request) => JSON.stringify([request.model, request.body.messages]));
    expect(asked.length - new Set(asked).size).toBeLessThanOrEqual(1);
    const assembled = await runAgora(['maxx', '--out', out, ...flags], '', environment);
    expect(assembled.code).toBe(0);
    expect(JSON.parse(assembled.stdout)).toMatchObject({ calls: 0, rows: { 'arena-general': 0, 'arena-both_bad': 0, reactions: 2 } });
    // One worker with models that answer the same, from scratch: the same rows.
    const single = service(rolesOf('-single'));
    await single.run({ concurrency: 1, subsets: ['reactions'] });
    await single.assemble(join(folder, 'one-worker'));
    const essence = (directory: string) =>
      ['arena-general', 'arena-both_bad', 'reactions']
        .flatMap((subset) => subsetRows(directory, subset))
        .map((row) => JSON.stringify(row))
        .sort();
    expect(essence(out)).toEqual(essence(join(folder, 'one-worker')));
  }, 90_000);

  /** Waits until the fake upstream has answered `count` requests since `started` (a CLI run is under way). */
  const untilAnswered = (started: number, count: number) =>
    until(
      async () => harness.fake.requests.slice(started).filter((request) => request.completed).length,
      (answered) => answered >= count,
      30_000,
    );

  /** A service whose waits between attempts are recorded instead of slept. */
  const recordingService = (roles: ReturnType<typeof rolesOf>, waits: number[]) => {
    const models = parseCatalogue(catalogueYaml(harness.fake.baseUrl), 'models.yaml', {});
    const client = (id: string) => ({
      id,
      client: createModelClient(
        models.find((model) => model.entry.id === id)!,
        undefined,
      ),
    });
    const byRole: MaxxRoles = {
      generator: client(roles.generator),
      reviewer: client(roles.reviewer),
      critic: client(roles.critic),
      judges: [client(roles.judge)],
      stylist: client(roles.generator),
    };
    return new MaxxService(harness.arena.store, byRole, { backoffMs: 1, callAttempts: 3 }, systemRuntime, (ms: number) => {
      waits.push(ms);
      return Promise.resolve();
    });
  };

  it('waits as long as a 429 asks (Retry-After), and asks again for JSON after a malformed structured answer', async () => {
    const roles = rolesOf('-flaky');
    harness.fake.behave(`tools/${roles.generator}`, { tokensPerSecond: 0, text: OPTIMAL, httpStatus: 429, retryAfterS: 2, failTimes: 1 });
    let criticAnswers = 0;
    harness.fake.behave(`tools/${roles.critic}`, {
      tokensPerSecond: 0,
      text: (prompt) => {
        if (prompt.startsWith('Compare the content')) return JSON.stringify({ same_content: true });
        criticAnswers += 1;
        return criticAnswers === 1 ? 'Sure! The reply is fine.' : passingCritic;
      },
    });
    const waits: number[] = [];
    const result = await recordingService(roles, waits).run({ subsets: ['reactions'], concurrency: 1 });
    expect(result).toMatchObject({ items: 2, kept: 2, unfinished: 0 });
    expect(waits[0]).toBe(2000);
    const retried = harness.fake
      .requestsFor(`tools/${roles.critic}`)
      .filter((request) => JSON.stringify(request.body.messages).includes('not the JSON object asked for'));
    expect(retried).toHaveLength(1);
  });

  it('drops what the critic rejects and says why, and leaves items to a later run when a provider keeps failing', async () => {
    const strict = rolesOf('-strict');
    harness.fake.behave(`tools/${strict.critic}`, {
      tokensPerSecond: 0,
      text: JSON.stringify({ ...JSON.parse(passingCritic), right_language: false }),
    });
    const dropped = await recordingService(strict, []).run();
    expect(dropped).toMatchObject({ items: 4, kept: 0, dropped: { 'critic rejected': 3, 'critic rejected an earlier turn': 1 } });

    const down = rolesOf('-down');
    harness.fake.behave(`tools/${down.generator}`, { tokensPerSecond: 0, httpStatus: 503 });
    const waits: number[] = [];
    const service = recordingService(down, waits);
    expect(await service.run({ concurrency: 1 })).toMatchObject({ items: 4, kept: 0, unfinished: 4 });
    expect(waits.length).toBeGreaterThan(0);
    // Nothing recorded: the same run later takes every item up again.
    harness.fake.behave(`tools/${down.generator}`, { tokensPerSecond: 0, text: OPTIMAL });
    expect(await service.run()).toMatchObject({ items: 4, kept: 4, unfinished: 0 });
  });

  it('sends no call once the run has spent --max-cost, and leaves the rest for a later run', async () => {
    const roles = rolesOf('-priced');
    const maxx = createMaxxService(
      loadConfig({ DATABASE_URL: environment.DATABASE_URL!, AGORA_MODELS: environment.AGORA_MODELS! }),
      harness.arena.store,
      parseCatalogue(catalogueYaml(harness.fake.baseUrl), 'models.yaml', {}),
      idsOf(roles),
      { backoffMs: 1, maxCostUsd: 1 },
    );
    const priced = () => Object.values(roles).reduce((sum, id) => sum + harness.fake.requestsFor(`tools/${id}`).length, 0);
    const before = priced();
    // The plan prices the tokens it estimates: $1 a prompt token, output free.
    const plan = await maxx.plan();
    expect(plan.estimatedCostUsd.generator).toBe(plan.estimatedTokens.generator.input);
    expect(plan.estimatedTotalCostUsd).toBe(Object.values(plan.estimatedTokens).reduce((sum, tokens) => sum + tokens.input, 0));
    expect(priced()).toBe(before);
    // One item at a time: the first call ($1 a token) crosses the limit, and nothing is sent after it.
    const result = await maxx.run({ concurrency: 1 });
    expect(result).toMatchObject({ items: 4, kept: 0, stoppedAtCost: true, unfinished: 1 });
    expect(result.costUsd.generator).toBeGreaterThanOrEqual(1);
    expect(priced() - before).toBe(1);
  });

  it('sends a provider at most the requests its catalogue entry allows at once, whatever the run’s concurrency', async () => {
    const roles = rolesOf('-limited');
    const result = await service(roles).run({ concurrency: 8 });
    expect(result).toMatchObject({ items: 4, kept: 4 });
    // All the role models are served by one endpoint that takes 2 requests at once: 8 items never open a third.
    expect(harness.fake.peakConcurrency(Object.values(roles).map((id) => `tools/${id}`))).toBe(2);
  });

  it('shows a progress bar with rows, spend and time left on a terminal, and plain lines otherwise', async () => {
    const flags = (set: string) => ['maxx', '--worker', ...roleFlags(rolesOf(set)), '--subset', 'reactions'];
    // `script` gives the command a pseudo-terminal, as an operator's shell would.
    const command = [agoraBin, ...flags('-tty')].map((word) => `'${word.replaceAll("'", "'\\''")}'`).join(' ');
    const terminal = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { env: { ...process.env, ...environment } });
    expect(terminal.stdout).toMatch(/maxx \[=+\] 2\/2 items \| 2 kept \| \d+ calls \(\d+ cached\) \| \$0\.0000 \| 0s left/);
    const plain = await runAgora(flags('-plain'), '', environment);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toMatch(/^maxx 2\/2 items, 2 kept, \d+ calls \(\d+ cached\), \$0\.0000 spent, about 0 s left$/m);
    expect(plain.stderr).not.toContain('maxx [');
  }, 60_000);
  it('measures the judge against the visitors with --calibrate, on the cached calls of an earlier run', async () => {
    const roles = rolesOf('-calibrated');
    // The judge prefers the optimal reply, and of two original replies the one of the bigger model, wherever it is shown.
    const size = (text: string) => Number(/Réponse (\d+)/.exec(text)?.[1] ?? 0);
    harness.fake.behave(`tools/${roles.judge}`, {
      tokensPerSecond: 0,
      text: (prompt) => {
        if (prompt.includes(OPTIMAL)) return judgeAnswer(prompt);
        const [a, b] = [size(prompt.slice(prompt.indexOf('Reply A:'))), size(prompt.slice(prompt.indexOf('Reply B:')))];
        return JSON.stringify({ reasons: 'the bigger model knows more', better: a > b ? 'A' : a < b ? 'B' : 'tie' });
      },
    });
    const calibrated = (calibrate: boolean) =>
      createMaxxService(
        loadConfig({ DATABASE_URL: environment.DATABASE_URL!, AGORA_MODELS: environment.AGORA_MODELS! }),
        harness.arena.store,
        parseCatalogue(catalogueYaml(harness.fake.baseUrl), 'models.yaml', {}),
        idsOf(roles),
        { backoffMs: 1, calibrate },
      );
    await calibrated(false).run();
    const before = harness.fake.requests.length;
    const maxx = calibrated(true);
    expect(await maxx.run()).toMatchObject({ items: 4, kept: 4 });
    // Only the calibration's judgings are new: three turns (the voted duel's vote and its dislike are about one turn), both orders.
    const sent = harness.fake.requests.slice(before);
    expect(sent).toHaveLength(6);
    expect(sent.every((request) => request.model === `tools/${roles.judge}`)).toBe(true);

    // Each item: the visitor's side (a for the vote, neither for both-bad, a for a dislike of b) and the judge's (the bigger model's).
    const records = await harness.arena.store.maxx.listItems(maxx.runKey);
    const items = await maxx.listItems();
    expect(items.map((item) => item.visitorPreference).sort()).toEqual(['a', 'a', 'a', 'tie']);
    // A vote and a dislike of the same turn are one judged pair: counted once (the vote's), so 3 pairs of 4 items.
    let agreed = 0;
    const counted = new Set<string>();
    for (const item of items) {
      const turn = item.conversation.turns[item.turnIndex]!;
      const judge = size(turn.a.text) > size(turn.b.text) ? 'a' : 'b';
      const record = records.find((candidate) => candidate.sourceId === item.sourceId && candidate.subset === item.subset)!;
      expect(record.stats.calibration).toEqual({ human: item.visitorPreference, judge, key: item.calibrationKey });
      if (counted.has(item.calibrationKey)) continue;
      counted.add(item.calibrationKey);
      if (judge === item.visitorPreference) agreed += 1;
    }
    expect(counted.size).toBe(3);
    const card = readFileSync((await maxx.assemble(join(folder, 'calibrated'))).cardPath, 'utf8');
    const [low, high] = wilsonInterval(agreed, 3);
    const percent = (value: number) => `${(100 * value).toFixed(1)} %`;
    expect(card).toContain(`| all | 3 | ${percent(agreed / 3)} | ${percent(low)} – ${percent(high)} | 0 |`);
    expect(card).toContain(`| fr | 3 | ${percent(agreed / 3)} |`);
    // The both-bad vote prefers neither reply, and the judge took a side.
    expect(card).toContain('| `arena-both_bad` | 1 | 0.0 % | 0.0 % – 79.3 % | 0 |');
  });
  it('lists the last set on the datasets page, and agora export --optimised writes it with the open datasets', async () => {
    const roles = rolesOf('-published');
    const maxx = service(roles);
    await maxx.run();
    const built = await maxx.assemble(join(folder, 'published'));
    const page = await harness.client.request('GET', '/api/v1/datasets');
    expect(page.status).toBe(200);
    expect(page.json.optimised).toMatchObject({
      subsets: [
        { name: 'arena-general', rows: built.rows['arena-general'] },
        { name: 'arena-both_bad', rows: built.rows['arena-both_bad'] },
        { name: 'reactions', rows: built.rows.reactions },
      ],
      languages: [{ language: 'fr', rows: 4 }],
      models: { generator: roles.generator, reviewer: roles.reviewer, critic: roles.critic, judge: roles.judge, stylist: roles.generator },
      judge_agreement: null,
    });
    expect(JSON.stringify(page.json)).not.toContain(maxx.runKey);

    const out = join(folder, 'export-with-set');
    const exported = await runAgora(
      ['export', '--out', out, '--format', 'jsonl', '--datasets', 'votes,dpo', '--optimised'],
      '',
      environment,
    );
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(
      `${join(out, 'optimised', 'README.md')}\toptimised set (arena-general 1 rows, arena-both_bad 1 rows, reactions 2 rows)`,
    );
    for (const subset of ['arena-general', 'arena-both_bad', 'reactions'])
      expect(readFileSync(join(out, 'optimised', subset, 'fr', 'train.jsonl'), 'utf8')).toBe(
        readFileSync(join(folder, 'published', subset, 'fr', 'train.jsonl'), 'utf8'),
      );
    // The same card: a later export writes what the run's card said.
    expect(readFileSync(join(out, 'optimised', 'README.md'), 'utf8')).toBe(readFileSync(built.cardPath, 'utf8'));
    // The export is recorded too, with its card's figures.
    const published = await harness.client.request('GET', '/api/v1/datasets');
    expect(published.json.export).toMatchObject({ formats: ['jsonl'], license: 'other' });
    expect(published.json.export.datasets).toEqual(expect.arrayContaining([{ name: 'votes', rows: 2 }]));
    // Two datasets: the votes in both folders, the dpo pairs in the public one.
    expect(published.json.export.tiers).toEqual([
      { name: 'public', datasets: ['votes', 'dpo'] },
      { name: 'gated', datasets: ['votes'] },
    ]);
    // The public card says where the optimised set is: beside the two tiers, a dataset of its own.
    expect(readFileSync(join(out, 'public', 'README.md'), 'utf8')).toContain(
      'reactions 2 rows) is the `optimised/` folder beside this one',
    );
    expect(subsetJsonl(out, 'votes')).toHaveLength(2);
  }, 60_000);
  it('drops a pair whose two orders disagree (the judge followed the position), and the card says how often', async () => {
    const roles = rolesOf('-biased');
    harness.fake.behave(`tools/${roles.judge}`, {
      tokensPerSecond: 0,
      text: JSON.stringify({ reasons: 'the first is better', better: 'A' }),
    });
    const maxx = service(roles);
    expect(await maxx.run()).toMatchObject({ items: 4, kept: 0, dropped: { inconsistent: 4 } });
    const card = readFileSync((await maxx.assemble(join(folder, 'biased'))).cardPath, 'utf8');
    expect(card).toContain('| total | 0 | 0 | 0 | 0 | 0 | 0 | 0 |');
    // Each original is judged in both orders: 2 pairs per arena item, 1 per disliked answer.
    expect(card).toMatch(/Position consistency: 0\.0 % of 6 judgements/);
    expect(card).toContain('| inconsistent | 4 |');
  });

  it('never keeps a cut reply: a cut answer is asked again with twice the budget, and an item whose answer stays cut is dropped as truncated, then taken up again', async () => {
    const cut = rolesOf('-cut');
    harness.fake.behave(`tools/${cut.generator}`, { tokensPerSecond: 0, text: optimalFor, finishReason: 'length' });
    const maxx = service(cut);
    expect(await maxx.run()).toMatchObject({ items: 4, kept: 0, dropped: { truncated: 4 } });
    // Every call carries its output budget, temperature and seed; a cut answer is asked once more with twice the budget.
    const writer = harness.fake.requestsFor(`tools/${cut.generator}`);
    expect(new Set(writer.map((request) => request.body.max_tokens))).toEqual(new Set([4096, 8192]));
    expect(writer.every((request) => request.body.temperature === 0.7 && request.body.seed === 1)).toBe(true);
    const card = readFileSync((await maxx.assemble(join(folder, 'cut'))).cardPath, 'utf8');
    expect(card).toContain('| truncated | 4 |');
    expect(card).toContain(`| generator | \`${cut.generator}\` | 4096 | 0.7 | 1 |`);
    expect(card).toContain(`| judge | \`${cut.judge}\` | 2048 | 0 | 1 |`);
    // The provider is healthy again: a truncated item is the provider's fault, so the next run takes it up.
    harness.fake.behave(`tools/${cut.generator}`, { tokensPerSecond: 0, text: optimalFor });
    expect(await maxx.run()).toMatchObject({ items: 4, kept: 4 });
    const judges = harness.fake.requestsFor(`tools/${cut.judge}`);
    expect(judges.length).toBeGreaterThan(0);
    expect(judges.every((request) => request.body.max_tokens === 2048 && request.body.temperature === 0 && request.body.seed === 1)).toBe(
      true,
    );

    // Cut only with the first budget: the larger one completes it, and that complete answer is the row's.
    const once = rolesOf('-cutonce');
    harness.fake.behave(`tools/${once.generator}`, {
      tokensPerSecond: 0,
      text: optimalFor,
      finishReason: (maxTokens) => ((maxTokens ?? 0) < 8192 ? 'length' : 'stop'),
    });
    const completed = service(once);
    expect(await completed.run()).toMatchObject({ items: 4, kept: 4 });
    const records = await harness.arena.store.maxx.listItems(completed.runKey);
    expect(records.every((record) => (record.stats.incompleteAnswers ?? 0) > 0)).toBe(true);
  });

  it('with two judges: a split panel drops the row, a unanimous one makes it strong, and the card gives their agreement', async () => {
    const panel = (roles: ReturnType<typeof rolesOf>, second: string) =>
      createMaxxService(
        loadConfig({ DATABASE_URL: environment.DATABASE_URL!, AGORA_MODELS: environment.AGORA_MODELS! }),
        harness.arena.store,
        parseCatalogue(catalogueYaml(harness.fake.baseUrl), 'models.yaml', {}),
        { ...idsOf(roles), judges: [roles.judge, second] },
        { backoffMs: 1 },
      );
    const split = panel(rolesOf('-split'), SECOND_JUDGES.split);
    expect(await split.run()).toMatchObject({ items: 4, kept: 0, dropped: { 'split panel': 4 } });
    const splitCard = readFileSync((await split.assemble(join(folder, 'split'))).cardPath, 'utf8');
    expect(splitCard).toMatch(/Inter-judge agreement: 0\.0 % of 6 pairs/);
    // Both judges read every pair in both orders: 6 pairs, of which one (side b of the first duel, voted on and
    // disliked) is the same question for two items and asked once.
    expect(harness.fake.requestsFor(`tools/${SECOND_JUDGES.split}`)).toHaveLength(10);
    expect(harness.fake.requestsFor(`tools/${rolesOf('-split').judge}`)).toHaveLength(10);

    const agree = panel(rolesOf('-agree'), SECOND_JUDGES.agree);
    expect(await agree.run()).toMatchObject({ items: 4, kept: 4 });
    const out = join(folder, 'agree');
    const agreeCard = readFileSync((await agree.assemble(out)).cardPath, 'utf8');
    expect(agreeCard).toMatch(/Inter-judge agreement: 100\.0 % of 6 pairs/);
    expect(agreeCard).toContain(`Judges: \`${rolesOf('-agree').judge}\`, \`${SECOND_JUDGES.agree}\` (2).`);
    expect([...subsetRows(out, 'arena-general'), ...subsetRows(out, 'arena-both_bad')].map((row) => row.pref_strength)).toEqual([
      'strong',
      'strong',
    ]);
  });

  it('writes a disliked answer a fix: the generator sees the answer, its tags and comment, and the reactions row has its own reply', async () => {
    const fix = rolesOf('-fix');
    const FIXED = `${OPTIMAL} Corrigée : sans l’erreur signalée.`;
    harness.fake.behave(`tools/${fix.generator}`, {
      tokensPerSecond: 0,
      text: (prompt, messages) => (messages.includes('disliked an earlier answer') ? FIXED : optimalFor(prompt)),
    });
    const maxx = service(fix);
    expect(await maxx.run()).toMatchObject({ items: 4, kept: 4 });
    const shown = harness.fake
      .requestsFor(`tools/${fix.generator}`)
      .filter((request) => JSON.stringify(request.body.messages).includes('disliked'));
    expect(shown.length).toBeGreaterThan(0);
    // The disliked answer (side b of the first turn) and the visitor's tag are in the generator's prompt.
    expect(JSON.stringify(shown[0]!.body.messages)).toMatch(/Their tags: incorrect\..*Réponse \d+ :/);
    const out = join(folder, 'fix');
    const card = readFileSync((await maxx.assemble(out)).cardPath, 'utf8');
    const arena = [...subsetRows(out, 'arena-general'), ...subsetRows(out, 'arena-both_bad')];
    const reactions = subsetRows(out, 'reactions');
    expect(reactions.map((row) => row.response_optimal)).toEqual([FIXED, FIXED]);
    for (const row of arena) expect(row.response_optimal).not.toBe(FIXED);
    // The two reactions rows fix two answers with the same words: counted, not hidden.
    expect(card).toContain("Rows whose `response_optimal` is the same text as another row's: 2 of 4");
  });

  it('takes up again, on the next run, the items a malformed-answer outage dropped, and keeps no malformed answer', async () => {
    const outage = rolesOf('-outage');
    harness.fake.behave(`tools/${outage.judge}`, { tokensPerSecond: 0, text: 'Sure! A is clearly better.' });
    const maxx = service(outage);
    expect(await maxx.run()).toMatchObject({ items: 4, kept: 0, dropped: { 'malformed structured output': 4 } });
    const duringOutage = harness.fake.requestsFor(`tools/${outage.judge}`).length;
    // The judge was asked again once, with the parse error, before each drop.
    expect(
      harness.fake
        .requestsFor(`tools/${outage.judge}`)
        .some((request) => JSON.stringify(request.body.messages).includes('not the JSON object asked for')),
    ).toBe(true);
    harness.fake.behave(`tools/${outage.judge}`, { tokensPerSecond: 0, text: judgeAnswer });
    expect(await maxx.run()).toMatchObject({ items: 4, kept: 4, dropped: {} });
    // Not read back from the cache: the judge was asked again.
    expect(harness.fake.requestsFor(`tools/${outage.judge}`).length).toBeGreaterThan(duringOutage);
    const records = await harness.arena.store.maxx.listItems(maxx.runKey);
    expect(records.map((record) => record.status)).toEqual(['kept', 'kept', 'kept', 'kept']);
  });

  it('loads as the reference set does: load_dataset(folder, split="train"), every config, and DuckDB, with the card’s counts', async (context) => {
    const out = join(folder, 'agree-load');
    const agree = createMaxxService(
      loadConfig({ DATABASE_URL: environment.DATABASE_URL!, AGORA_MODELS: environment.AGORA_MODELS! }),
      harness.arena.store,
      parseCatalogue(catalogueYaml(harness.fake.baseUrl), 'models.yaml', {}),
      { ...idsOf(rolesOf('-agree')), judges: [rolesOf('-agree').judge, SECOND_JUDGES.agree] },
      { backoffMs: 1 },
    );
    await agree.run();
    const card = readFileSync((await agree.assemble(out)).cardPath, 'utf8');
    const header = card.slice(0, card.indexOf('\n---\n', 4));
    for (const field of ['license: other', 'language:\n- fr', 'task_categories:\n- text-generation', 'size_categories:\n- n<1K', 'tags:'])
      expect(header).toContain(field);
    const configs = [
      ...header.matchAll(/- config_name: (\S+)\n(?: {2}default: true\n)? {2}data_files:\n {2}- split: train\n {4}path: "([^"]+)"/g),
    ].map(([, name, path]) => ({ name: name!, path: path! }));
    expect(configs.map((config) => config.name)).toEqual(['default', 'arena-general', 'arena-both_bad', 'reactions', 'lang-fr']);
    const counted = Object.fromEntries(
      [...header.matchAll(/- config_name: (\S+)\n {2}splits:\n {2}- name: train\n {4}num_examples: (\d+)/g)].map(([, name, rows]) => [
        name!,
        Number(rows),
      ]),
    );
    expect(counted).toEqual({ default: 4, 'arena-general': 1, 'arena-both_bad': 1, reactions: 2, 'lang-fr': 4 });
    const duckdb = await DuckDBInstance.create(':memory:');
    const connection = await duckdb.connect();
    try {
      for (const config of configs) {
        const [row] = (
          await connection.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM read_parquet('${join(out, config.path)}')`)
        ).getRowObjectsJS();
        expect(row!.n, config.name).toBe(counted[config.name]);
      }
    } finally {
      connection.closeSync();
      duckdb.closeSync();
    }
    const python = pythonWithDatasets();
    if ('unavailable' in python) {
      console.warn(`Hugging Face datasets not loaded: ${python.unavailable}`);
      context.skip();
      return;
    }
    const loaded = loadWithDatasets(
      python.python,
      out,
      configs.map((config) => config.name),
    );
    for (const config of configs) {
      expect(loaded[config.name]!.rows, config.name).toBe(counted[config.name]);
      expect(loaded[config.name]!.columns).toEqual(MAXX_COLUMNS.map((column) => column.name));
    }
  }, 180_000);

  it('publishes only what is eligible now: a conversation a reviewer excluded after its items ran leaves the set', async () => {
    const maxx = service(rolesOf('-eligible'));
    expect(await maxx.run()).toMatchObject({ items: 4, kept: 4 });
    const count = async (name: string) => {
      const written = await maxx.assemble(join(folder, name));
      return written.rows['arena-general'] + written.rows['arena-both_bad'] + written.rows.reactions;
    };
    expect(await count('eligible-before')).toBe(4);
    const decide = (decision: 'exclude' | 'include') =>
      harness.arena.store.reviews.decide(
        { duelId: voted[0]!.id, decision, reason: 'a name in the prompt', reviewer: 'test', decidedAt: new Date().toISOString() },
        `audit-${decision}`,
        decision === 'exclude' ? null : 'exclude',
      );
    await decide('exclude');
    try {
      // The first duel's vote and its dislike: two rows out, in the set and in a later export of it.
      expect(await count('eligible-after')).toBe(2);
      const exported = join(folder, 'eligible-export');
      expect(
        (await runAgora(['export', '--out', exported, '--format', 'jsonl', '--datasets', 'votes', '--optimised'], '', environment)).code,
      ).toBe(0);
      expect(
        ['arena-general', 'arena-both_bad', 'reactions'].flatMap((subset) => subsetRows(join(exported, 'optimised'), subset)),
      ).toHaveLength(2);
    } finally {
      await decide('include');
    }
    expect(await count('eligible-again')).toBe(4);
  }, 60_000);

  it('drops a disliked answer whose fix the critic does not see as "defect not fixed", after a second draft with the next seed', async () => {
    const roles = rolesOf('-nofix');
    harness.fake.behave(`tools/${roles.critic}`, {
      tokensPerSecond: 0,
      text: (prompt) =>
        prompt.startsWith('Compare the content')
          ? JSON.stringify({ same_content: true })
          : JSON.stringify({ ...(JSON.parse(passingCritic) as object), fixes_defect: false, complaint: 'valid' }),
    });
    expect(await service(roles).run()).toMatchObject({ items: 4, kept: 2, dropped: { 'defect not fixed': 2 } });
    // The second draft of a disliked answer is asked with the next seed: a seeded provider would otherwise write the same one.
    const fixes = harness.fake
      .requestsFor(`tools/${roles.generator}`)
      .filter((request) => JSON.stringify(request.body.messages).includes('disliked an earlier answer'));
    expect(new Set(fixes.map((request) => request.body.seed))).toEqual(new Set([1, 2]));
  });

  it('shows opted-in visitors a blind pair of the published set, records their choice once, and the card reports people’s agreement with the judges', async () => {
    const maxx = service(rolesOf('-checked'));
    expect(await maxx.run()).toMatchObject({ kept: 4 });
    await maxx.assemble(join(folder, 'checked-before'));
    const visitor = new ArenaClient(harness.baseUrl);
    const pair = async () => {
      const next = await visitor.request('GET', '/api/v1/checks/next');
      expect(next.status).toBe(200);
      const shown = next.json as { id: string; messages: { role: string; content: string }[]; a: string; b: string };
      // Blind: the reply of the set is on one side, the original on the other, and nothing says which.
      expect([shown.a, shown.b].filter((reply) => reply.includes(OPTIMAL))).toHaveLength(1);
      expect(Object.keys(shown).sort()).toEqual(['a', 'b', 'id', 'messages']);
      expect(shown.messages.at(-1)!.role).toBe('user');
      return { ...shown, optimalSide: shown.a.includes(OPTIMAL) ? 'a' : 'b' };
    };
    // A choice made before the replies can be read is kept but does not count.
    const hasty = await pair();
    expect((await visitor.request('POST', `/api/v1/checks/${hasty.id}`, { choice: hasty.optimalSide })).status).toBe(200);
    const read = await pair();
    expect(read.id).not.toBe(hasty.id);
    // The shortest time in which the two replies can be read (2 s at least).
    await new Promise((resolve) => setTimeout(resolve, minReadingMs(read.a.length, read.b.length) + 100));
    expect((await visitor.request('POST', `/api/v1/checks/${read.id}`, { choice: read.optimalSide })).json).toEqual({ status: 'recorded' });
    // Once per pair, and only its visitor's.
    expect((await visitor.request('POST', `/api/v1/checks/${read.id}`, { choice: 'tie' })).status).toBe(409);
    const stranger = new ArenaClient(harness.baseUrl);
    const theirs = await stranger.request('GET', '/api/v1/checks/next');
    expect((await visitor.request('POST', `/api/v1/checks/${String(theirs.json.id)}`, { choice: 'a' })).status).toBe(404);
    expect((await visitor.request('POST', `/api/v1/checks/${read.id}`, { choice: 'maybe' })).status).toBe(400);

    const card = readFileSync((await maxx.assemble(join(folder, 'checked-after'))).cardPath, 'utf8');
    expect(card).toContain('## Do people agree with the judges?');
    expect(card).toMatch(/\| all \| 1 \| 1 \| 1 \| 0 \| 0 \| 100\.0 % \|/);
  }, 60_000);
});

describe('agora maxx on a store with nothing eligible', () => {
  let harness: TestArena;
  let folder: string;
  beforeAll(async () => {
    // The background screening is off: the conversation stays unscreened, as on a store just filled.
    harness = await startTestArena(DIALECTS[0]!, {
      catalogue: (baseUrl) => parseCatalogue(catalogueYaml(baseUrl), 'test-models.yaml', {}),
      environment: { AGORA_POSTPROCESS: 'false' },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    folder = mkdtempSync(join(tmpdir(), 'agora-maxx-empty-'));
    writeFileSync(join(folder, 'models.yaml'), catalogueYaml(harness.fake.baseUrl));
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'Explique la photosynthèse.', mode: 'random' });
    await harness.client.stream(created.json.id);
    expect((await harness.client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('says why in one line, exits 2 and writes a card of 0 rows that says why', async () => {
    const location = harness.store.location;
    const run = (databaseUrl: string, out: string) =>
      runAgora(['maxx', '--out', out, ...roleFlags(ROLES)], '', { DATABASE_URL: databaseUrl, AGORA_MODELS: join(folder, 'models.yaml') });
    const unscreened = await run(location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url, join(folder, 'unscreened'));
    expect(unscreened).toMatchObject({ code: 2, stdout: '' });
    // The tool models are all of one maker: a warning each for the judge, then the one error line.
    expect(unscreened.stderr).toMatch(/^agora maxx: warning: the judge ".*" and the generator ".*" are both made by /);
    expect(errorLines(unscreened.stderr)).toBe(
      "agora: no eligible item: none of the store's 1 conversation has passed personal-data screening yet (run `agora postprocess`, or import screened data)",
    );
    const card = readFileSync(join(folder, 'unscreened', 'README.md'), 'utf8');
    expect(card).toContain(
      "**0 rows.** No eligible item (a voted conversation or a disliked answer that passed personal-data screening): none of the store's 1 conversation",
    );
    expect(card).toContain('| total | 0 | 0 | 0 | 0 | 0 | 0 | 0 |');
    // No row, no folder: a config over no file would make `datasets` fail.
    expect(existsSync(join(folder, 'unscreened', 'arena-general'))).toBe(false);
    expect(card).not.toContain('configs:');

    const noSet = await runAgora(['export', '--out', join(folder, 'no-set'), '--optimised'], '', {
      DATABASE_URL: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url,
      AGORA_MODELS: join(folder, 'models.yaml'),
    });
    expect(noSet).toMatchObject({
      code: 2,
      stderr: 'agora: --optimised: no optimised preference set has been built on this store yet (agora maxx --out DIR builds one)\n',
    });
    expect(existsSync(join(folder, 'no-set'))).toBe(false);

    // Check mode is off on this arena: no pair, whatever the store holds.
    expect((await harness.client.request('GET', '/api/v1/checks/next')).json).toMatchObject({ error: { code: 'not_found' } });
    const empty = await run(`sqlite:${join(folder, 'empty.sqlite')}`, join(folder, 'empty'));
    expect(empty).toMatchObject({ code: 2 });
    expect(errorLines(empty.stderr)).toBe('agora: no eligible item: the store has no conversation yet');
  }, 60_000);
});
