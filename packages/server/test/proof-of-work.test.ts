import { errorBodySchema, proofChallengeSchema, type Proof } from '@agora/contract';
import { createChallenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROOF_ATTEMPT_COST } from '../src/adapters/proof-of-work';
import { ConfigError, loadConfig } from '../src/config/config';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, startTestArena } from './test-arena';

const SECRET = 'proof-of-work-test-secret';
const POW = { AGORA_PROOF_OF_WORK: '40', AGORA_PROOF_OF_WORK_SECRET: SECRET };

/** What the web app does: get a challenge, solve it, and send both back. */
async function solvedProof(client: ArenaClient): Promise<Proof> {
  const response = await client.request('GET', '/api/v1/challenge');
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const { challenge } = proofChallengeSchema.parse(response.json);
  const solution = await solveChallenge({ challenge, deriveKey });
  return { challenge, solution: solution! };
}

const expectRefused = (response: { status: number; json: unknown }, why: RegExp) => {
  expect(response.status).toBe(403);
  const { error } = errorBodySchema.parse(response.json);
  expect(error.code).toBe('proof_required');
  expect(error.message).toMatch(why);
};

describe.each(DIALECTS)('proof of work before a duel ($name)', (dialect) => {
  let harness: TestArena;
  beforeAll(async () => {
    harness = await startTestArena(dialect, { environment: POW });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
  });
  afterAll(() => harness.close());

  it('a duel needs a solved challenge, and each proof starts one duel only', async () => {
    const visitor = new ArenaClient(harness.baseUrl);
    expectRefused(await visitor.request('POST', '/api/v1/duels', { prompt: 'Bonjour' }), /asks for a proof of work/);
    const proof = await solvedProof(visitor);
    expect(proof.solution.counter).toBeLessThanOrEqual(40);
    expect(proof.challenge.parameters.cost).toBe(PROOF_ATTEMPT_COST);
    const created = await visitor.request('POST', '/api/v1/duels', { prompt: 'Bonjour', proof });
    expect(created.status).toBe(201);
    await visitor.stream(created.json.id);
    expectRefused(await visitor.request('POST', '/api/v1/duels', { prompt: 'Encore', proof }), /already been used/);
    // Another visitor cannot reuse it either, and follow-ups need none.
    expectRefused(await new ArenaClient(harness.baseUrl).request('POST', '/api/v1/duels', { prompt: 'Moi', proof }), /already been used/);
    expect((await visitor.request('POST', `/api/v1/duels/${created.json.id}/messages`, { prompt: 'Et ensuite ?' })).status).toBe(201);
    await harness.arena.duels.drain();
  });

  it('refuses a wrong solution, a tampered challenge, another arena’s challenge and an expired one', async () => {
    const visitor = new ArenaClient(harness.baseUrl);
    const proof = await solvedProof(visitor);
    const wrongKey = {
      ...proof,
      solution: { ...proof.solution, derivedKey: proof.solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0')) },
    };
    expectRefused(await visitor.request('POST', '/api/v1/duels', { prompt: 'x', proof: wrongKey }), /does not solve/);
    // An easier challenge than the one signed: the signature no longer matches its parameters.
    const easier = { ...proof, challenge: { ...proof.challenge, parameters: { ...proof.challenge.parameters, cost: 1 } } };
    expectRefused(await visitor.request('POST', '/api/v1/duels', { prompt: 'x', proof: easier }), /does not solve/);
    const foreign = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: PROOF_ATTEMPT_COST,
      counter: 3,
      deriveKey,
      hmacSignatureSecret: 'another arena',
      hmacKeySignatureSecret: 'another arena key',
    });
    const foreignProof = { challenge: foreign, solution: (await solveChallenge({ challenge: foreign, deriveKey }))! };
    expectRefused(await visitor.request('POST', '/api/v1/duels', { prompt: 'x', proof: foreignProof }), /not issued here/);
    const expired = await createChallenge({
      algorithm: 'PBKDF2/SHA-256',
      cost: PROOF_ATTEMPT_COST,
      counter: 3,
      deriveKey,
      expiresAt: new Date(Date.now() - 1000),
      hmacSignatureSecret: `${SECRET}:challenge`,
      hmacKeySignatureSecret: `${SECRET}:key`,
    });
    const expiredProof = { challenge: expired, solution: (await solveChallenge({ challenge: expired, deriveKey }))! };
    expectRefused(await visitor.request('POST', '/api/v1/duels', { prompt: 'x', proof: expiredProof }), /expired/);
    // The good proof was not spent by the refused attempts around it.
    expect((await visitor.request('POST', '/api/v1/duels', { prompt: 'x', proof })).status).toBe(201);
    // A request refused for another reason does not spend its proof.
    const kept = await solvedProof(visitor);
    expect((await visitor.request('POST', '/api/v1/duels', { prompt: 'x', mode: 'custom', models: ['nope'], proof: kept })).status).toBe(
      400,
    );
    expect((await visitor.request('POST', '/api/v1/duels', { prompt: 'x', proof: kept })).status).toBe(201);
    // Malformed proofs are a 400 like any bad body.
    for (const bad of [{ challenge: 'x' }, { ...proof, solution: { counter: -1, derivedKey: 'zz' } }, { ...proof, extra: 1 }]) {
      const response = await visitor.request('POST', '/api/v1/duels', { prompt: 'x', proof: bad });
      expect(response.status).toBe(400);
      expect(errorBodySchema.parse(response.json).error.code).toBe('invalid_request');
    }
    await harness.arena.duels.drain();
  });
});

describe('proof of work, off and across instances', () => {
  it('is off by default: no challenge (204, not an error a browser would log), and duels need no proof', async () => {
    const harness = await startTestArena(DIALECTS[0]!);
    try {
      const response = await harness.client.request('GET', '/api/v1/challenge');
      expect(response.status).toBe(204);
      expect(response.json).toBeUndefined();
      expect((await harness.client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' })).status).toBe(201);
      await harness.arena.duels.drain();
    } finally {
      await harness.close();
    }
  });

  it('several instances need one shared secret', () => {
    const several = { AGORA_INSTANCES: 'several', DATABASE_URL: 'postgres://localhost/agora', AGORA_PROOF_OF_WORK: '1000' };
    expect(() => loadConfig(several)).toThrow(ConfigError);
    expect(() => loadConfig(several)).toThrow(/AGORA_PROOF_OF_WORK_SECRET/);
    expect(loadConfig({ ...several, AGORA_PROOF_OF_WORK_SECRET: SECRET }).proofOfWork).toEqual({ maxAttempts: 1000, secret: SECRET });
  });

  const postgres = DIALECTS.find((dialect) => dialect.name === 'postgres');
  it.runIf(postgres)('a challenge from one instance is accepted by the other, once across both', async () => {
    const first = await startTestArena(postgres!, { environment: POW });
    const second = await startTestArena(postgres!, { environment: POW, store: first.store });
    try {
      const onFirst = new ArenaClient(first.baseUrl);
      const proof = await solvedProof(onFirst);
      const onSecond = new ArenaClient(second.baseUrl, onFirst.visitorCookie);
      expect((await onSecond.request('POST', '/api/v1/duels', { prompt: 'Un', proof })).status).toBe(201);
      expectRefused(await onFirst.request('POST', '/api/v1/duels', { prompt: 'Deux', proof }), /already been used/);
      await first.arena.duels.drain();
      await second.arena.duels.drain();
    } finally {
      await second.close();
      await first.close();
    }
  });
});
