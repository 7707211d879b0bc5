/**
 * `npm run demo`: the whole arena offline. Starts the bundled fake upstream on 127.0.0.1:3999 with
 * a few scripted "models" of different styles and paces, then the arena with `models.demo.yaml`.
 */
import { fileURLToPath } from 'node:url';
import { FakeUpstream } from '../test/fake-upstream/fake-upstream';
import { loadConfig } from './config/config';
import { AddressInUseError, closeOnSignals, createArena, listen, openStore } from './main';
import { seedDemoDuels } from './services/demo-seed.service';
import { systemRuntime } from './services/ports/runtime';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const paragraphs = (prompt: string, style: string) =>
  `${style}\n\nYou asked: *${prompt.slice(0, 120)}*.\n\n1. A first idea, stated plainly.\n2. A second idea, with an example:\n\n\`\`\`python\nprint("bonjour")\n\`\`\`\n\nIn short, there is more than one good answer.`;

const FAKE_PORT = 3999;
const fake = await new FakeUpstream().start(FAKE_PORT).catch((error: NodeJS.ErrnoException) => {
  if (error.code !== 'EADDRINUSE') throw error;
  process.stderr.write(`agora demo: port ${FAKE_PORT} (the demo's fake models) is already in use: is another demo running?\n`);
  process.exit(2);
});
fake.behave('fake-large-dense', {
  tokensPerSecond: 45,
  firstTokenDelayMs: 300,
  text: (prompt) => paragraphs(prompt, '## A structured answer'),
});
fake.behave('fake-mixture', {
  tokensPerSecond: 70,
  firstTokenDelayMs: 200,
  text: (prompt) => paragraphs(prompt, '**Short version:** it depends.'),
});
fake.behave('fake-medium', {
  tokensPerSecond: 35,
  firstTokenDelayMs: 400,
  text: (prompt) => paragraphs(prompt, 'Here is a careful answer.'),
});
fake.behave('fake-small', {
  tokensPerSecond: 90,
  firstTokenDelayMs: 150,
  noUsage: true,
  text: (prompt) => `Quick answer to "${prompt.slice(0, 80)}": yes, mostly.`,
});
fake.behave('fake-thinker', {
  tokensPerSecond: 60,
  reasoning: 'Let me think about the question step by step before answering.',
  text: (prompt) => paragraphs(prompt, 'After thinking it over:'),
});
// One model's connection drops mid-answer on its first request and every third after: a cut after the
// first token is neither retried nor replaced, so a newcomer sees the error card within the first duels
// (an error before the first token would be retried or replaced, and never shown).
fake.behave('fake-flaky', {
  tokensPerSecond: 50,
  cutEvery: 3,
  text: (prompt) => paragraphs(prompt, 'A plain answer, when it works.'),
});
fake.behave('fake-tiny-thinker', {
  tokensPerSecond: 80,
  reasoning: 'Short thought.',
  text: (prompt) => `My answer to "${prompt.slice(0, 80)}" is a short one.`,
});

const environment = {
  ...process.env,
  AGORA_MODELS: process.env.AGORA_MODELS ?? `${root}models.demo.yaml`,
  DATABASE_URL: process.env.DATABASE_URL ?? `sqlite:${root}data/demo.db`,
  AGORA_DEMO: '1',
  // Models with few battles are drawn more often (compar:IA's sampling): the unseeded flaky model comes up early.
  AGORA_PAIRING: process.env.AGORA_PAIRING ?? 'catch_up',
};
const config = loadConfig(environment);
if (!process.env.AGORA_MODELS) await seedPastVotes();
const arena = await createArena(config, environment);
const server = await listen(arena, config).catch(async (error: unknown) => {
  if (!(error instanceof AddressInUseError)) throw error;
  await arena.close();
  await fake.stop();
  process.stderr.write(`agora demo: ${error.message}\n`);
  process.exit(2);
});
closeOnSignals(arena, server);

/**
 * Past votes between the demo's models, strongest first (the flaky one has none: the pairing draws it
 * early), on an empty store only and before the arena starts, so that its first board ranks them.
 */
async function seedPastVotes(): Promise<void> {
  const store = await openStore(config);
  try {
    const models = ['demo-large-dense', 'demo-thinker', 'demo-mixture', 'demo-medium', 'demo-tiny-thinker', 'demo-small'];
    const seeded = await seedDemoDuels(store, systemRuntime, { models, duels: 240, days: 14 });
    if (seeded > 0) process.stdout.write(`agora demo: seeded ${seeded} past duels with votes, so that the leaderboard has ranks to show\n`);
  } finally {
    await store.close();
  }
}
process.once('exit', () => void fake.stop());
