import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LeaderboardBody, transcriptSchema } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subsetFiles } from './export-files';
import { runAgora } from './run-agora';
import { DIALECTS } from './test-db';
import { TEST_MODELS, type TestArena, startTestArena, streamedText, testCatalogueYaml } from './test-arena';
import { writeFileSync } from 'node:fs';

const upstreamOf = (id: string) => TEST_MODELS.find((model) => model.id === id)!.upstream;
const STEADY = 'miravel-24b';
const FLAKY = 'kestrix-8b';
const prompts = ['Premier tour [tour-1-a41c]', 'Deuxième tour [tour-2-failed-9e0b]', 'Troisième tour [tour-3-c7d2]'];

/**
 * A follow-up that fails is withheld for both sides; the turns both models completed before it stay
 * a fair duel: votable, continuable, revealed, ranked and exported on those turns only.
 */
describe.each(DIALECTS)('a duel whose follow-up failed ($name)', (dialect) => {
  let harness: TestArena;
  let folder: string;
  let duelId: string;
  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      // Custom mode picks the pair; AGORA_LEADERBOARD_CUSTOM_ON_MAIN ranks it on the main board.
      environment: {
        AGORA_LEADERBOARD_MIN_VOTES: '1',
        AGORA_RETRIES: '0',
        AGORA_INTEGRITY_MIN_VOTE_S: '0',
        AGORA_LEADERBOARD_CUSTOM_ON_MAIN: '1',
      },
    });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    folder = mkdtempSync(join(tmpdir(), 'agora-completed-turns-'));
  });
  afterAll(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows nothing of the failed turn, stays votable, and goes on from the turns both models completed', async () => {
    const { client, fake, arena } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: prompts[0], mode: 'custom', models: [STEADY, FLAKY] });
    duelId = created.json.id as string;
    expect((await client.stream(duelId)).at(-1)!.event).toMatchObject({ type: 'turn-end', status: 'complete' });

    // Turn 2: one side's stream is cut after a few chunks, once the other side has streamed too.
    fake.behave(upstreamOf(FLAKY), { tokensPerSecond: 0, cutAfterChunks: 2 });
    expect((await client.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: prompts[1] })).status).toBe(201);
    const failed = await client.stream(duelId, { turn: 2 });
    expect(failed.at(-2)!.event).toMatchObject({ type: 'turn-error', message: expect.stringMatching(/vote on the earlier turns/) });
    expect(failed.at(-1)!.event).toEqual({ type: 'turn-end', turn: 2, status: 'failed' });
    // Withheld for both sides once failed: the replay and the transcript hold no answer of turn 2.
    const replay = await client.stream(duelId, { turn: 2 });
    expect(streamedText(replay)).toEqual({ a: '', b: '' });
    expect(replay.some(({ event }) => event.type === 'side-end' || event.type === 'reasoning-delta')).toBe(false);
    const transcript = transcriptSchema.parse((await client.request('GET', `/api/v1/duels/${duelId}`)).json);
    expect(transcript.status).toBe('ready');
    expect(transcript.turns.map((turn) => [turn.turn, turn.status])).toEqual([
      [1, 'complete'],
      [2, 'failed'],
    ]);
    expect(transcript.turns[1]).toMatchObject({ a: { text: '', reasoning: null }, b: { text: '', reasoning: null } });
    expect(transcript.turns[0]!.a.text.length).toBeGreaterThan(0);
    // Still blind: nothing the visitor can read names a model before the vote.
    const readable = JSON.stringify([failed, replay, transcript]);
    for (const model of TEST_MODELS)
      for (const name of [model.id, model.name, model.organisation, model.upstream]) expect(readable).not.toContain(name);
    // Nothing of the failed turn can be reacted to.
    const reaction = await client.request('POST', `/api/v1/duels/${duelId}/reactions`, { side: 'a', turn: 2, value: 'like' });
    expect(reaction).toMatchObject({ status: 409, json: { error: { code: 'duel_failed' } } });
    expect((await client.request('POST', `/api/v1/duels/${duelId}/reactions`, { side: 'a', turn: 1, value: 'like' })).status).toBe(200);

    // Turn 3: sent again, the models get turn 1 as history and nothing of turn 2.
    fake.behave(upstreamOf(FLAKY), { tokensPerSecond: 0 });
    fake.reset();
    expect((await client.request('POST', `/api/v1/duels/${duelId}/messages`, { prompt: prompts[2] })).status).toBe(201);
    expect((await client.stream(duelId, { turn: 3 })).at(-1)!.event).toMatchObject({ type: 'turn-end', turn: 3, status: 'complete' });
    for (const model of [STEADY, FLAKY]) {
      const sent = JSON.stringify(fake.requestsFor(upstreamOf(model)).at(-1)!.body);
      expect(sent).toContain('tour-1-a41c');
      expect(sent).toContain('tour-3-c7d2');
      expect(sent).not.toContain('tour-2-failed');
    }
    await arena.duels.drain();
  });

  it('reveals, ranks and exports the completed turns only', async () => {
    const { client, arena } = harness;
    const sides = await arena.store.duels.listSides(duelId);
    const flakySide = sides.find((side) => side.turn === 1 && side.modelId === FLAKY)!.side;
    const steadySide = flakySide === 'a' ? 'b' : 'a';
    // The steady side completed turn 2 alone: its tokens there must not count.
    expect(sides.find((side) => side.turn === 2 && side.side === steadySide)).toMatchObject({ status: 'complete' });
    const completedTokens = (side: 'a' | 'b') =>
      sides.filter((record) => record.side === side && record.turn !== 2).reduce((sum, record) => sum + (record.outputTokens ?? 0), 0);

    const vote = await client.request('POST', `/api/v1/duels/${duelId}/vote`, { choice: steadySide });
    expect(vote.status).toBe(200);
    expect(vote.json.reveal[steadySide].output_tokens).toBe(completedTokens(steadySide));
    expect(vote.json.reveal[flakySide].output_tokens).toBe(completedTokens(flakySide));

    arena.leaderboardRefresh.trigger();
    await arena.leaderboardRefresh.idle();
    const board = (await client.request('GET', '/api/v1/leaderboard')).json as LeaderboardBody;
    const row = (id: string) => board.models.find((candidate) => candidate.model === id);
    expect(row(STEADY)).toMatchObject({ n_battles: 1, wins: 1 });
    expect(row(FLAKY)).toMatchObject({ n_battles: 1, losses: 1 });

    writeFileSync(join(folder, 'models.yaml'), testCatalogueYaml(harness.fake.baseUrl));
    const location = harness.store.location;
    const environment = {
      DATABASE_URL: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url,
      AGORA_MODELS: join(folder, 'models.yaml'),
    };
    expect((await runAgora(['postprocess', '--no-model'], '', environment)).code).toBe(0);
    const out = join(folder, 'export');
    const exported = await runAgora(['export', '--out', out, '--format', 'jsonl', '--datasets', 'conversations,votes'], '', environment);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const everything = (['conversations', 'votes'] as const)
      .flatMap((name) => subsetFiles(out, name, 'jsonl').map((path) => readFileSync(path, 'utf8')))
      .join('\n');
    expect(everything).toContain('tour-1-a41c');
    expect(everything).toContain('tour-3-c7d2');
    expect(everything).not.toContain('tour-2-failed');
    const conversation = JSON.parse(readFileSync(subsetFiles(out, 'conversations', 'jsonl')[0]!, 'utf8').split('\n')[0]!) as Record<
      string,
      unknown
    >;
    expect(conversation.conv_turns).toBe(2);
  });
});
