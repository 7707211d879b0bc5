import type { Proof, ProofChallenge } from '@agora/contract';
import { AppError } from '../app-error';

/**
 * The optional proof of work before a duel (docs/operations.md#proof-of-work): the browser spends
 * about a second of CPU on a signed challenge, which costs a visitor nothing while it types and a
 * script that starts thousands of duels (each two paid model calls) that second every time.
 */
export interface ProofOfWork {
  /** A fresh signed challenge; it expires after a few minutes. */
  challenge(): Promise<ProofChallenge>;
  /** Checks a solved challenge and spends it: the same proof is accepted once, on every instance. */
  redeem(proof: Proof): Promise<ProofVerdict>;
  close(): Promise<void>;
}

export type ProofVerdict = 'accepted' | 'invalid' | 'expired' | 'spent';

const refusals: Record<Exclude<ProofVerdict, 'accepted'> | 'missing', string> = {
  missing: 'this arena asks for a proof of work before a duel: solve GET /api/v1/challenge and send it as "proof"',
  invalid: 'the proof of work does not solve its challenge, or the challenge was not issued here',
  expired: 'the proof-of-work challenge has expired: get a new one',
  spent: 'this proof of work has already been used: get a new challenge',
};

/** Lets the request through with an accepted proof; otherwise 403 `proof_required`, saying why. */
export async function requireProof(proofOfWork: ProofOfWork, proof: Proof | undefined): Promise<void> {
  const verdict = proof ? await proofOfWork.redeem(proof) : 'missing';
  if (verdict !== 'accepted') throw new AppError('proof_required', refusals[verdict]);
}
