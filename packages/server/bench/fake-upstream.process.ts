/**
 * The fake upstream in its own process for benchmarks, so that its CPU and memory are not the
 * arena's. Models `paced-N` stream an answer at a realistic pace after a fixed first-token delay
 * (FAKE_FIRST_TOKEN_MS, FAKE_TOKENS_PER_SECOND, FAKE_ANSWER_TOKENS); models `instant-N` answer a few
 * tokens at once. Prints `ready <port>` when listening.
 *
 * Requests whose last prompt ends with a tag (` #<tag>`) are timed: asked `{ timings: true }` over the
 * IPC channel, the process answers, per tag, when each such request arrived and when its first content
 * chunk was written, so that the bench can tell the upstream's own time to first token from the time
 * added on the way to the client.
 */
import { judgedReplyText } from '../src/adapters/maxx-steps';
import { passingCritic as fixturePassingCritic } from '../test/maxx-fixture';
import { FakeUpstream, type FakeRequest } from '../test/fake-upstream/fake-upstream';

const fake = await new FakeUpstream().start(0);
const answer = Array.from({ length: Number(process.env.FAKE_ANSWER_TOKENS ?? 200) }, (_, index) => `mot${index}`).join(' ');
for (let index = 0; index < 6; index += 1) {
  fake.behave(`paced-${index}`, {
    firstTokenDelayMs: Number(process.env.FAKE_FIRST_TOKEN_MS ?? 200),
    tokensPerSecond: Number(process.env.FAKE_TOKENS_PER_SECOND ?? 30),
    text: answer,
  });
  fake.behave(`instant-${index}`, { text: 'Une réponse courte et immédiate.' });
}

// The optimised set's role models (bench/maxx.bench.ts), answering after 0 or 200 ms as real ones do, with
// their usual faults, drawn from a hash of the request so that a rerun sees the same ones: the writer a reply of
// its own conversation (1 in 20 first answers cut on length), the reviewer a defect in 7 drafts of 10, the
// critic a failing rubric 1 time in 40, the judge the reply it reads as better (1 answer in 50 not JSON, 1
// ordering in 100 a tie).
export const MAXX_BENCH_OPTIMAL = 'Une réponse optimale du banc d’essai, complète et exacte.';
const passingCritic = { ...(JSON.parse(fixturePassingCritic) as Record<string, unknown>), complaint: 'valid' };
/** FNV-1a of a text, for the faults a request gets. */
const draw = (text: string, modulo: number): number => {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  return hash % modulo;
};
for (const delay of [0, 200]) {
  const paced = { tokensPerSecond: 0, firstTokenDelayMs: delay };
  fake.behave(`maxx-writer-${delay}`, {
    ...paced,
    // A reply of the whole conversation it continues (two conversations ending on the same prompt get two replies).
    text: (prompt, messages) =>
      `${MAXX_BENCH_OPTIMAL} ${draw(messages, 1_000_000)} ${prompt.slice(0, 60)} ${'détail '.repeat(5 + draw(messages, 40))}`.trim(),
    finishReason: (maxTokens, prompt) => ((maxTokens ?? 0) < 8192 && draw(prompt, 20) === 0 ? 'length' : 'stop'),
  });
  fake.behave(`maxx-reviewer-${delay}`, {
    ...paced,
    text: (prompt) => JSON.stringify({ defects: draw(prompt, 10) < 7 ? ['La réponse omet un point demandé.'] : [] }),
  });
  fake.behave(`maxx-critic-${delay}`, {
    ...paced,
    text: (prompt) =>
      prompt.startsWith('Compare the content')
        ? JSON.stringify({ same_content: true })
        : JSON.stringify({ ...passingCritic, right_language: draw(prompt, 40) !== 0 }),
  });
  fake.behave(`maxx-judge-${delay}`, {
    ...paced,
    text: (prompt, messages) => {
      if (draw(prompt, 50) === 0) return 'Reply A is better.';
      // Asked again after an answer that was not JSON: the pair is in the first user message, not the last.
      const pair =
        (JSON.parse(messages) as { role: string; content: string }[]).find((message) => message.content.includes('Reply A:'))?.content ??
        '';
      const a = judgedReplyText(pair, 'A');
      const b = judgedReplyText(pair, 'B');
      if (draw(a + b, 100) === 0) return JSON.stringify({ reasons: 'equivalent', better: 'tie' });
      return JSON.stringify({ reasons: 'more complete', better: a.includes(MAXX_BENCH_OPTIMAL) ? 'A' : 'B' });
    },
  });
}

const tagged = new Map<string, FakeRequest[]>();
const tagOf = (request: FakeRequest): string | undefined => {
  const messages = request.body.messages as { content?: unknown }[] | undefined;
  const prompt = messages?.at(-1)?.content;
  return typeof prompt === 'string' ? prompt.match(/ #(\S+)$/)?.[1] : undefined;
};
// The bench never reads the request log: keep memory flat over long runs (tagged requests are kept until asked for).
setInterval(() => {
  for (const request of fake.requests.splice(0, fake.requests.length)) {
    const tag = tagOf(request);
    if (tag !== undefined) tagged.set(tag, [...(tagged.get(tag) ?? []), request]);
  }
}, 1000).unref();
process.on('message', (message: { timings?: boolean }) => {
  if (!message.timings) return;
  for (const request of fake.requests.splice(0, fake.requests.length)) {
    const tag = tagOf(request);
    if (tag !== undefined) tagged.set(tag, [...(tagged.get(tag) ?? []), request]);
  }
  const timings = Object.fromEntries(
    [...tagged].map(([tag, requests]) => [
      tag,
      requests.map((request) => ({ receivedAt: request.receivedAt, firstChunkAt: request.firstChunkAt ?? null })),
    ]),
  );
  tagged.clear();
  process.send?.({ timings });
});
process.stdout.write(`ready ${new URL(fake.baseUrl).port}\n`);
process.on('SIGTERM', () => void fake.stop().then(() => process.exit(0)));
