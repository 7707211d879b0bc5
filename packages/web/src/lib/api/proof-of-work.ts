import { type Proof, proofChallengeSchema } from '@agora/contract';

/**
 * The proof of work some arenas ask before each duel (the server's `AGORA_PROOF_OF_WORK`): a signed
 * challenge from `GET /api/v1/challenge`, solved here with ALTCHA's solver and WebCrypto (which
 * derives keys off the main thread), ahead of time while the visitor types, so that sending a
 * prompt does not wait for it. An arena that asks for none answers 204, and nothing more is done.
 */

/** A challenge expires after 15 minutes on the server; one older than this is solved again. */
const FRESH_FOR_MS = 10 * 60_000;

let asked = true;
let ahead: Promise<{ proof: Proof; solvedAt: number } | null> | null = null;

async function solveOne(): Promise<{ proof: Proof; solvedAt: number } | null> {
  const response = await fetch('/api/v1/challenge', { credentials: 'same-origin' });
  if (response.status === 204) {
    asked = false;
    return null;
  }
  if (!response.ok) throw new Error(`the proof-of-work challenge could not be fetched (HTTP ${response.status})`);
  const { challenge } = proofChallengeSchema.parse(await response.json());
  // Loaded only by arenas that ask for a proof: the others never download the solver.
  const [{ solveChallenge }, { deriveKey }] = await Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/web/pbkdf2')]);
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('the proof-of-work challenge could not be solved in time');
  return { proof: { challenge, solution }, solvedAt: Date.now() };
}

/** Starts solving the next duel's proof in the background. */
export function prepareProof(): void {
  if (!asked || ahead) return;
  const solving = solveOne();
  ahead = solving;
  // A failure here is retried by takeProof; it must not surface as an unhandled rejection.
  solving.catch(() => {
    if (ahead === solving) ahead = null;
  });
}

/**
 * The proof for the duel about to start (undefined when the arena asks for none): the one solved
 * ahead when it is still fresh, else a new one; then the next one is prepared. `fresh` after the
 * server refused a proof (it expired, or the server restarted with another secret).
 */
export async function takeProof(options: { fresh?: boolean } = {}): Promise<Proof | undefined> {
  if (options.fresh) {
    asked = true;
    ahead = null;
  }
  if (!asked) return undefined;
  const pending = ahead;
  ahead = null;
  let solved = pending ? await pending.catch(() => undefined) : undefined;
  if (solved === undefined || (solved && Date.now() - solved.solvedAt > FRESH_FOR_MS)) solved = await solveOne();
  prepareProof();
  return solved?.proof;
}
