/**
 * The fake upstream in its own process for benchmarks, so that its CPU and memory are not the
 * arena's. Models `paced-N` stream an answer at a realistic pace after a fixed first-token delay
 * (FAKE_FIRST_TOKEN_MS, FAKE_TOKENS_PER_SECOND, FAKE_ANSWER_TOKENS); models `instant-N` answer a few
 * tokens at once. Prints `ready <port>` when listening.
 */
import { FakeUpstream } from '../test/fake-upstream/fake-upstream';

const fake = await new FakeUpstream().start(0);
const answer = Array.from({ length: Number(process.env.FAKE_ANSWER_TOKENS ?? 200) }, (_, index) => `mot${index}`).join(' ');
for (let index = 0; index < 6; index += 1) {
  fake.behave(`paced-${index}`, { firstTokenDelayMs: Number(process.env.FAKE_FIRST_TOKEN_MS ?? 200), tokensPerSecond: Number(process.env.FAKE_TOKENS_PER_SECOND ?? 30), text: answer });
  fake.behave(`instant-${index}`, { text: 'Une réponse courte et immédiate.' });
}
// The bench never reads the request log: keep memory flat over long runs.
setInterval(() => fake.requests.splice(0, fake.requests.length), 1000).unref();
process.stdout.write(`ready ${new URL(fake.baseUrl).port}\n`);
process.on('SIGTERM', () => void fake.stop().then(() => process.exit(0)));
