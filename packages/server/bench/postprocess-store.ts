/**
 * Child process of the post-processing benchmark: `generate DB N` writes a seeded store of N short
 * conversations (one turn: a prompt and two answers, three messages) in five languages, none
 * annotated yet, from a vocabulary of 4,000 words per language drawn by Zipf’s law (unrelated prompts
 * share a band key about once in 67,000 pairs, measured; once in 700 from the 35 words before).
 * Some prompts repeat with light edits (the near-duplicate clusters have work),
 * some ask about code or maths (the capability rules fire), a few carry an e-mail address or a
 * phone number (the personal-data rules flag them).
 */
import { loadCatalogue } from '../src/config/catalogue';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import SqliteDatabase from 'better-sqlite3';
import { FREQUENT_WORDS, sentenceMaker } from './synthetic-prompts';

const CATALOGUE = new URL('../../../models.yaml', import.meta.url).pathname;

const LANGUAGES = Object.keys(FREQUENT_WORDS);
/** Prompts that the capability rules label (code, maths), in the arena's languages. */
const LABELLED = [
  'Écris une fonction Python qui trie une liste de dictionnaires par date.',
  'How do I reverse a linked list in JavaScript without extra memory?',
  'Calculate 17 * 23 + 4 and explain each step.',
  'Résous l’équation 3x + 5 = 20 et vérifie la solution.',
  'Skriv en SQL-forespørgsel der tæller ordrer per kunde.',
  'Beräkna 15 procent av 240 kronor.',
];

/** xorshift32: the same store for the same N on every machine. */
function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** A thousand sentences per language, from which the answers are made (their words matter to the detector, not their variety). */
function sentencePools(sentence: (language: string) => string, size: number): Record<string, string[]> {
  return Object.fromEntries(LANGUAGES.map((language) => [language, Array.from({ length: size }, () => sentence(language))]));
}

async function generate(path: string, count: number): Promise<void> {
  const kysely = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(kysely);
  await kysely.destroy();
  const models = loadCatalogue(CATALOGUE, {}).map((model) => model.entry.id);
  const db = new SqliteDatabase(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  const random = seeded(20261207);
  const sentence = sentenceMaker(random);
  const pools = sentencePools(sentence, 1000);
  const sentences = (language: string, n: number) =>
    Array.from({ length: n }, () => pools[language]![Math.floor(random() * pools[language]!.length)]).join(' ');
  const insertDuel = db.prepare(
    "INSERT INTO duels (id, visitor_hash, mode, model_a, model_b, chosen_models, locale, status, turn_count, created_at, updated_at) VALUES (?, ?, 'random', ?, ?, NULL, ?, 'voted', 1, ?, ?)",
  );
  const insertTurn = db.prepare(
    "INSERT INTO turns (duel_id, turn, prompt, status, started_at, ended_at) VALUES (?, 1, ?, 'complete', ?, ?)",
  );
  const insertSide = db.prepare(
    "INSERT INTO turn_sides (duel_id, turn, side, model_id, text, output_tokens, status, identity_leak) VALUES (?, 1, ?, ?, ?, ?, 'complete', 0)",
  );
  const start = Date.parse('2026-01-01T00:00:00.000Z');
  const earlier: string[] = [];
  const prompt = (language: string, index: number): string => {
    const draw = random();
    // One prompt in ten repeats an earlier one, upper-cased or with doubled spaces (a near duplicate).
    if (draw < 0.1 && earlier.length > 0) {
      const again = earlier[Math.floor(random() * earlier.length)]!;
      return random() < 0.5 ? again.toUpperCase() : again.replace(/ /g, '  ');
    }
    if (draw < 0.15) return LABELLED[Math.floor(random() * LABELLED.length)]!;
    if (draw < 0.17) return `${sentence(language)} jeanne.dupont${index}@example.fr`;
    // A new prompt: sentences never drawn before (a pool of sentences would repeat them as whole prompts).
    const text = Array.from({ length: 1 + Math.floor(random() * 2) }, () => sentence(language)).join(' ');
    if (earlier.length < 5000) earlier.push(text);
    return text;
  };
  const chunk = db.transaction((from: number, to: number) => {
    for (let index = from; index < to; index++) {
      const id = `p${index.toString(36).padStart(21, '0')}`;
      const at = new Date(start + index * 1000).toISOString();
      const language = LANGUAGES[Math.floor(random() * LANGUAGES.length)]!;
      const modelA = models[Math.floor(random() * models.length)]!;
      const modelB = models[Math.floor(random() * models.length)]!;
      insertDuel.run(id, `visitor-${Math.floor(random() * 50_000)}`, modelA, modelB, language, at, at);
      insertTurn.run(id, prompt(language, index), at, at);
      insertSide.run(id, 'a', modelA, sentences(language, 2 + Math.floor(random() * 3)), 60);
      insertSide.run(id, 'b', modelB, sentences(language, 2 + Math.floor(random() * 3)), 60);
    }
  });
  for (let from = 0; from < count; from += 10_000) chunk(from, Math.min(count, from + 10_000));
  db.close();
}

const [command, path, argument] = process.argv.slice(2);
if (command === 'generate') await generate(path!, Number(argument));
else throw new Error(`unknown command ${command}`);
