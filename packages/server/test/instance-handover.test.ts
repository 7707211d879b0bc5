import { type ReceivedFrame, readStreamFrames } from '@agora/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeUpstream } from './fake-upstream/fake-upstream';
import { type ProxiedInstances, type ServeInstance, canRunBehindNginx, startProxiedInstances } from './proxied-instances';
import { DIALECTS } from './test-db';
import { ArenaClient, testCatalogueYaml, until } from './test-arena';

/**
 * A dead instance hands over (issue 31): two `agora serve` processes on one PostgreSQL behind nginx;
 * the one running a turn is killed (SIGKILL) mid-stream, and the other ends the turn as interrupted
 * once the dead one's lease on it lapses, so that its viewers get the failure frame and the duel
 * reads failed, within seconds instead of at the turn's deadline.
 */
const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');

/** What the tests ask of a handover: the failure frame within this long of the kill (the lease is 10 s). */
const HANDOVER_MS = 15_000;

/** A viewer's frames as they arrived, and when the stream ended (turn-end), in ms since the epoch. */
interface Viewer {
  frames: ReceivedFrame[];
  endedAt?: number;
  done: Promise<void>;
}

/** Follows a turn from `baseUrl` once: a connection that breaks ends the viewer where it is. */
function watchOnce(baseUrl: string, duelId: string, cookie: string): Viewer {
  const viewer: Viewer = { frames: [], done: Promise.resolve() };
  viewer.done = (async () => {
    const response = await fetch(`${baseUrl}/api/v1/duels/${duelId}/stream`, { headers: { cookie } });
    for await (const frame of readStreamFrames(response.body!)) {
      viewer.frames.push(frame);
      if (frame.event.type === 'turn-end') viewer.endedAt = Date.now();
    }
  })();
  return viewer;
}

/** Follows a turn from `baseUrl` as a browser's EventSource does: a broken connection is opened again with Last-Event-ID. */
function watchReconnecting(baseUrl: string, duelId: string, cookie: string, giveUpAt: number): Viewer {
  const viewer: Viewer = { frames: [], done: Promise.resolve() };
  viewer.done = (async () => {
    while (viewer.endedAt === undefined && Date.now() < giveUpAt) {
      const lastId = viewer.frames.at(-1)?.id;
      try {
        const response = await fetch(`${baseUrl}/api/v1/duels/${duelId}/stream`, {
          headers: { cookie, ...(lastId ? { 'last-event-id': lastId } : {}) },
        });
        for await (const frame of readStreamFrames(response.body!)) {
          viewer.frames.push(frame);
          if (frame.event.type === 'turn-end') viewer.endedAt = Date.now();
        }
      } catch {
        // The instance behind the connection died: open it again, as EventSource does.
      }
      if (viewer.endedAt === undefined) await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return viewer;
}

describe.runIf(canRunBehindNginx(postgres))('an instance killed mid-stream, behind nginx on one PostgreSQL', () => {
  let fake: FakeUpstream;
  let proxied: ProxiedInstances;

  beforeAll(async () => {
    fake = await new FakeUpstream().start();
    // Slow answers (five words a second, for over a minute): the turn is still streaming at the kill.
    fake.defaultBehaviour = { tokensPerSecond: 5, text: Array.from({ length: 400 }, (_, index) => `mot${index}`).join(' ') };
    proxied = await startProxiedInstances(postgres!, {
      count: 2,
      modelsYaml: testCatalogueYaml(fake.baseUrl, { totalTimeoutMs: 120_000 }),
      environment: { AGORA_POSTPROCESS: 'false', AGORA_INTEGRITY_MIN_VOTE_S: '0' },
    });
  }, 60_000);

  afterAll(async () => {
    await proxied?.close();
    await fake?.stop();
  });

  it('hands the turn over: the other instance’s viewers get the failure frame within 15 s, and a vote answers as for a failed duel', async () => {
    const [owner, other] = proxied.instances as [ServeInstance, ServeInstance];
    // The duel is created on the first instance directly: that one runs its turn.
    const visitor = new ArenaClient(owner.url);
    const created = await visitor.request('POST', '/api/v1/duels', { prompt: 'Raconte une longue histoire' });
    expect(created.status).toBe(201);
    const duelId = created.json.id as string;
    const cookie = visitor.visitorCookie!;
    // One viewer on the other instance, one through nginx (on either instance, reconnecting as a browser does).
    const follower = watchOnce(other.url, duelId, cookie);
    const proxiedViewer = watchReconnecting(proxied.proxyUrl, duelId, cookie, Date.now() + 60_000);
    const hasWords = (viewer: Viewer) => viewer.frames.some((frame) => frame.event.type === 'text-delta');
    await until(
      async () => hasWords(follower) && hasWords(proxiedViewer),
      (both) => both,
      20_000,
    );

    owner.process.kill('SIGKILL');
    const killedAt = Date.now();
    await until(
      async () => [follower.endedAt, proxiedViewer.endedAt],
      (ends) => ends.every((end) => end !== undefined),
      HANDOVER_MS + 15_000,
    );
    await Promise.all([follower.done, proxiedViewer.done]);
    const delays = [follower.endedAt! - killedAt, proxiedViewer.endedAt! - killedAt];
    console.info(`handover: failure frame ${delays.join(' ms and ')} ms after the kill (direct follower, through nginx)`);
    for (const viewer of [follower, proxiedViewer]) {
      expect(viewer.frames.slice(-2).map((frame) => frame.event)).toMatchObject([
        { type: 'turn-error', code: 'turn_interrupted' },
        { type: 'turn-end', turn: 1, status: 'failed' },
      ]);
      expect(viewer.endedAt! - killedAt).toBeLessThan(HANDOVER_MS);
    }

    const throughProxy = new ArenaClient(proxied.proxyUrl, cookie);
    expect(await throughProxy.request('POST', `/api/v1/duels/${duelId}/vote`, { choice: 'a' })).toMatchObject({
      status: 409,
      json: { error: { code: 'duel_failed' } },
    });
    expect((await throughProxy.request('GET', `/api/v1/duels/${duelId}`)).json).toMatchObject({
      status: 'failed',
      turns: [{ status: 'failed' }],
    });
    // Nothing the surviving instance logged is an error: the handover is routine.
    expect(other.logs.filter((line) => /"level":(50|60)/.test(line))).toEqual([]);
  }, 120_000);
});
