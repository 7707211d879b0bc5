import { randomBytes } from 'node:crypto';
import type { ProofChallenge } from '@agora/contract';
import { createChallenge, randomInt, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ProofOfWork, ProofVerdict } from '../services/ports/proof-of-work';

/** PBKDF2 iterations of one attempt: about 0.3 ms on a desktop CPU, a few times that on a phone. */
export const PROOF_ATTEMPT_COST = 1000;
/** A challenge is valid this long after it is issued: a visitor may type for a while. */
export const PROOF_TTL_S = 15 * 60;

export interface ProofOfWorkSettings {
  /** The most attempts a challenge can take (the secret counter is drawn uniformly up to it: N/2 on average, for a browser and a script alike). */
  maxAttempts: number;
  /** Signs challenges; every instance of one arena needs the same one. */
  secret: string | undefined;
}

/**
 * Proof of work with ALTCHA (altcha-lib, self-hosted, no third party): deterministic challenges, so
 * that checking a solution is two HMACs rather than a key derivation. Spent proofs are remembered
 * until their challenge expires, in memory on one instance and in the store's rate-limit table when
 * several share PostgreSQL.
 */
export function createProofOfWork(settings: ProofOfWorkSettings, shared: { postgresUrl: string } | undefined): ProofOfWork {
  const secret = settings.secret ?? randomBytes(32).toString('hex');
  const hmacSignatureSecret = `${secret}:challenge`;
  const hmacKeySignatureSecret = `${secret}:key`;
  const pool = shared ? new pg.Pool({ connectionString: shared.postgresUrl, max: 2 }) : undefined;
  const options = { keyPrefix: 'proof', points: 1, duration: PROOF_TTL_S };
  const spent: RateLimiterAbstract = pool
    ? new RateLimiterPostgres({
        ...options,
        storeClient: pool,
        storeType: 'pool',
        tableName: 'agora_rate_limits',
        tableCreated: true,
        insuranceLimiter: new RateLimiterMemory(options),
      })
    : new RateLimiterMemory(options);
  return {
    async challenge() {
      const challenge = await createChallenge({
        algorithm: 'PBKDF2/SHA-256',
        cost: PROOF_ATTEMPT_COST,
        // Uniform from 0: a range that starts higher would tell a script where to start searching.
        counter: randomInt(0, settings.maxAttempts),
        deriveKey,
        expiresAt: new Date(Date.now() + PROOF_TTL_S * 1000),
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      });
      return challenge as ProofChallenge;
    },
    async redeem(proof): Promise<ProofVerdict> {
      const result = await verifySolution({
        challenge: proof.challenge,
        solution: proof.solution,
        deriveKey,
        hmacSignatureSecret,
        hmacKeySignatureSecret,
      }).catch(() => undefined);
      if (!result) return 'invalid';
      if (result.expired) return 'expired';
      if (!result.verified) return 'invalid';
      try {
        await spent.consume(proof.challenge.signature);
        return 'accepted';
      } catch (refusal) {
        // A refusal is a second use; anything else is the store failing with no insurance left: let it through.
        return refusal instanceof RateLimiterRes ? 'spent' : 'accepted';
      }
    },
    async close() {
      await pool?.end();
    },
  };
}
