import { afterEach, describe, expect, it } from 'vitest';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena, streamedText } from './test-arena';

describe.each(DIALECTS)('disconnects lose nothing ($name)', (dialect) => {
  let harness: TestArena | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('a client that drops mid-stream and reconnects with Last-Event-ID gets exactly the missing frames', async () => {
    harness = await startTestArena(dialect);
    harness.fake.defaultBehaviour = { tokensPerSecond: 60, text: Array.from({ length: 60 }, (_, index) => `m${index}`).join(' ') };
    const { client } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'long' });
    const head = await client.stream(created.json.id, { stopAfter: 7 });
    expect(head).toHaveLength(7);
    expect(head.at(-1)!.event.type).not.toBe('turn-end');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const tail = await client.stream(created.json.id, { lastEventId: head.at(-1)!.id });
    expect(Number(tail[0]!.id)).toBe(8);
    expect(tail.at(-1)!.event).toMatchObject({ type: 'turn-end', status: 'complete' });

    const full = await client.stream(created.json.id);
    expect([...head, ...tail]).toEqual(full);
    const sides = await harness.arena.store.duels.listSides(created.json.id);
    const text = streamedText(full);
    expect(sides.map((side) => side.text)).toEqual([text.a, text.b]);
  });

  it('a turn nobody listens to still runs to the end and is stored', async () => {
    harness = await startTestArena(dialect);
    harness.fake.defaultBehaviour = { tokensPerSecond: 200 };
    const created = await harness.client.request('POST', '/api/v1/duels', { prompt: 'personne ne lit' });
    await harness.arena.duels.drain();
    const sides = await harness.arena.store.duels.listSides(created.json.id);
    expect(sides.map((side) => side.status)).toEqual(['complete', 'complete']);
    expect((await harness.arena.store.duels.findById(created.json.id))!.status).toBe('ready');
  });

  it('replays from the store once the in-memory copy has expired, with the same frame ids', async () => {
    harness = await startTestArena(dialect, { environment: { AGORA_REPLAY_TTL_S: '0' } });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    const { client } = harness;
    const created = await client.request('POST', '/api/v1/duels', { prompt: 'rejouer' });
    const live = await client.stream(created.json.id);
    await new Promise((resolve) => setTimeout(resolve, 30));
    const replayed = await client.stream(created.json.id);
    expect(replayed).toEqual(live);
    const resumed = await client.stream(created.json.id, { lastEventId: '4' });
    expect(resumed).toEqual(live.slice(4));
    const past = await client.stream(created.json.id, { lastEventId: String(live.length) });
    expect(past).toEqual([]);
  });
});
