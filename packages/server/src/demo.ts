/**
 * `npm run demo`: the whole arena offline. Starts the bundled fake upstream on 127.0.0.1:3999 with
 * a few scripted "models" of different styles and paces, then the arena with `models.demo.yaml`.
 */
import { fileURLToPath } from 'node:url';
import { FakeUpstream } from '../test/fake-upstream/fake-upstream';
import { loadConfig } from './config/config';
import { AddressInUseError, closeOnSignals, createArena, listen } from './main';

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
// One model fails one request in four, so that a newcomer sees the error path (and the retry) too.
fake.behave('fake-flaky', {
  tokensPerSecond: 50,
  failEvery: 4,
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
};
const config = loadConfig(environment);
const arena = await createArena(config, environment);
const server = await listen(arena, config).catch(async (error: unknown) => {
  if (!(error instanceof AddressInUseError)) throw error;
  await arena.close();
  await fake.stop();
  process.stderr.write(`agora demo: ${error.message}\n`);
  process.exit(2);
});
closeOnSignals(arena, server);
process.once('exit', () => void fake.stop());
