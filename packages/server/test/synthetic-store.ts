/**
 * Synthetic voted duels written straight into a SQLite store (one turn each, style counts, output
 * tokens, energy, a client address; votes from 200k visitors among 40 models): the scale
 * benchmark's stores and the test of a start on a large store.
 */
import type SqliteDatabase from 'better-sqlite3';
import { seededRandom } from './seeded-random';

/** The 40 models of the synthetic votes. */
export const SYNTHETIC_MODELS = Array.from({ length: 40 }, (_, index) => `model-${String(index).padStart(2, '0')}`);

/** Writes synthetic voted duels into a SQLite store; returns each vote's ranking-file line. */
export function duelWriter(db: SqliteDatabase.Database, seed: number): (index: number, atMs: number) => string {
  const random = seededRandom(seed);
  const insertDuel = db.prepare(
    "INSERT INTO duels (id, visitor_hash, mode, model_a, model_b, chosen_models, locale, status, turn_count, created_at, updated_at) VALUES (?, ?, 'random', ?, ?, NULL, NULL, 'voted', 1, ?, ?)",
  );
  const insertTurn = db.prepare(
    "INSERT INTO turns (duel_id, turn, prompt, status, started_at, ended_at) VALUES (?, 1, 'q', 'complete', ?, ?)",
  );
  const insertVote = db.prepare(
    "INSERT INTO votes (duel_id, choice, model_a, model_b, tags_a, tags_b, comment_a, comment_b, identity_leak, mode, locale, created_at, client_hash, style_a, style_b, tokens_a, tokens_b, energy_a, energy_b) VALUES (?, ?, ?, ?, '[]', '[]', NULL, NULL, 0, 'random', NULL, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const winners = { a: 'model_a', b: 'model_b', tie: 'tie', both_bad: 'both_bad' } as const;
  return (index, atMs) => {
    const id = `d${index.toString(36).padStart(12, '0')}`;
    const at = new Date(atMs).toISOString();
    const ended = new Date(atMs - 30_000).toISOString();
    const modelA = SYNTHETIC_MODELS[Math.floor(random() * SYNTHETIC_MODELS.length)]!;
    let modelB = SYNTHETIC_MODELS[Math.floor(random() * SYNTHETIC_MODELS.length)]!;
    if (modelB === modelA) modelB = SYNTHETIC_MODELS[(SYNTHETIC_MODELS.indexOf(modelA) + 1) % SYNTHETIC_MODELS.length]!;
    // A model's strength decides the odds, so that the fit has something to find.
    const strength = (model: string) => SYNTHETIC_MODELS.indexOf(model) / SYNTHETIC_MODELS.length;
    const roll = random();
    const pA = 0.35 + 0.3 * (strength(modelA) - strength(modelB));
    const choice = roll < pA ? 'a' : roll < 0.7 ? 'b' : roll < 0.85 ? 'tie' : 'both_bad';
    const side = () => ({
      len: 50 + Math.floor(random() * 800),
      headers: Math.floor(random() * 4),
      lists: Math.floor(random() * 6),
      bold: Math.floor(random() * 5),
    });
    const styleA = side();
    const styleB = side();
    insertDuel.run(id, `visitor-${Math.floor(random() * 200_000)}`, modelA, modelB, at, at);
    insertTurn.run(id, ended, ended);
    insertVote.run(
      id,
      choice,
      modelA,
      modelB,
      at,
      `client-${Math.floor(random() * 50_000)}`,
      JSON.stringify(styleA),
      JSON.stringify(styleB),
      styleA.len,
      styleB.len,
      JSON.stringify({ min: random(), max: 1 + random() }),
      JSON.stringify({ min: random(), max: 1 + random() }),
    );
    return JSON.stringify({
      model_a: modelA,
      model_b: modelB,
      winner: winners[choice],
      len_a: styleA.len,
      len_b: styleB.len,
      headers_a: styleA.headers,
      headers_b: styleB.headers,
      lists_a: styleA.lists,
      lists_b: styleB.lists,
      bold_a: styleA.bold,
      bold_b: styleB.bold,
    });
  };
}
