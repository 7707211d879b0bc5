/**
 * Local models benchmark (`npm run bench -- local`): tokens per second of duels on two llama.cpp
 * models through the whole arena (HTTP, the duel service, the turn runner, SSE to the client, the
 * store) against node-llama-cpp called directly on the same two models with the same settings, in
 * the same run. Both generate the two answers at once, greedily, with the same thread count, so
 * they generate the same tokens; the ratio is what the arena costs. Goal: the arena costs < 5 %.
 * The models are tiny GGUF files the bench writes itself (random weights, a few million parameters).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from 'node-llama-cpp';
import { pino } from 'pino';
import { parseCatalogue } from '../src/config/catalogue';
import { loadConfig } from '../src/config/config';
import { createArena, listen } from '../src/main';
import { ArenaClient } from '../test/test-arena';
import { localModelYaml, writeTinyGguf } from '../test/local-models/tiny-gguf';

const TOKENS = Number(process.env.AGORA_BENCH_LOCAL_TOKENS ?? 400);
const ROUNDS = Number(process.env.AGORA_BENCH_LOCAL_ROUNDS ?? 5);
const PROMPT = 'Écris un long texte sur la mer.';
const CONTEXT = 2048;
const SHAPE = { embedding: 256, layers: 6, heads: 8, feedForward: 768, contextLength: CONTEXT };

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

export async function run(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'agora-bench-local-'));
  const files = ['a', 'b'].map((name, index) => {
    const path = join(folder, `bench-${name}.gguf`);
    writeTinyGguf(path, { ...SHAPE, seed: 40 + index, name: `Bench ${name}` });
    return path;
  });
  const entry = (id: string, path: string) =>
    localModelYaml(id, path, { contextSize: CONTEXT, maxTokens: TOKENS, firstTokenTimeoutMs: 60_000, totalTimeoutMs: 600_000 });
  const catalogue = parseCatalogue(
    `models:\n${entry('bench-a', files[0]!)}${entry('bench-b', files[1]!)}`,
    join(folder, 'models.yaml'),
    {},
  );

  // The yardstick: node-llama-cpp itself, the two answers generated at once.
  const llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error });
  const models = await Promise.all(files.map((modelPath) => llama.loadModel({ modelPath })));
  const contexts = await Promise.all(models.map((model) => model.createContext({ contextSize: CONTEXT, sequences: 1, threads: 1 })));
  const direct = async (): Promise<{ tokens: number; seconds: number }> => {
    const started = performance.now();
    const counts = await Promise.all(
      models.map(async (model, index) => {
        const sequence = contexts[index]!.getSequence();
        const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: resolveChatWrapper(model) ?? undefined });
        let tokens = 0;
        await chat.generateResponse([{ type: 'user', text: PROMPT }], {
          maxTokens: TOKENS,
          temperature: 0,
          onResponseChunk: (chunk) => {
            tokens += chunk.tokens.length;
          },
        });
        chat.dispose({ disposeSequence: false });
        await sequence.dispose();
        return tokens;
      }),
    );
    return { tokens: counts[0]! + counts[1]!, seconds: (performance.now() - started) / 1000 };
  };

  // The arena: a real server on SQLite, a duel over HTTP, the stream read to its end.
  const environment = { DATABASE_URL: `sqlite:${join(folder, 'arena.db')}`, PORT: '0', AGORA_LOG_LEVEL: 'silent' };
  const config = loadConfig(environment);
  const arena = await createArena(config, environment, { catalogue, logger: pino({ level: 'silent' }) });
  const server = await listen(arena, config);
  const address = server.address();
  const client = new ArenaClient(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
  const duel = async (): Promise<{ tokens: number; seconds: number }> => {
    const started = performance.now();
    const created = await client.request('POST', '/api/v1/duels', { prompt: PROMPT, mode: 'custom', models: ['bench-a', 'bench-b'] });
    if (created.status !== 201) throw new Error(`duel refused: ${created.status} ${JSON.stringify(created.json)}`);
    const { id } = created.json as { id: string };
    await client.stream(id);
    const seconds = (performance.now() - started) / 1000;
    const vote = await client.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'tie' });
    const { reveal } = vote.json as { reveal: Record<'a' | 'b', { output_tokens: number }> };
    return { tokens: reveal.a.output_tokens + reveal.b.output_tokens, seconds };
  };

  try {
    // Warm-up: both sides load their models and fill their caches once.
    await direct();
    await duel();
    const directRates: number[] = [];
    const arenaRates: number[] = [];
    let tokens = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Alternated, so that a busy moment of the shared machine hits both.
      const yardstick = await direct();
      const measured = await duel();
      if (yardstick.tokens !== measured.tokens)
        throw new Error(`different token counts: direct ${yardstick.tokens}, arena ${measured.tokens}`);
      tokens = measured.tokens;
      directRates.push(yardstick.tokens / yardstick.seconds);
      arenaRates.push(measured.tokens / measured.seconds);
    }
    const ratio = median(arenaRates) / median(directRates);
    process.stdout.write(
      [
        `two tiny llama models (${SHAPE.embedding}-wide, ${SHAPE.layers} layers), one thread each, ${tokens} tokens per duel, ${ROUNDS} rounds alternated`,
        '',
        '| path | tokens/s (median) | runs |',
        '|---|---:|---|',
        `| node-llama-cpp directly | ${median(directRates).toFixed(1)} | ${directRates.map((rate) => rate.toFixed(0)).join(', ')} |`,
        `| the arena (HTTP, SSE, store) | ${median(arenaRates).toFixed(1)} | ${arenaRates.map((rate) => rate.toFixed(0)).join(', ')} |`,
        '',
        `arena / direct: ${ratio.toFixed(3)} (goal ≥ 0.95: the arena costs < 5 %) → ${ratio >= 0.95 ? 'met' : 'NOT met'}`,
        '',
      ].join('\n'),
    );
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await arena.close();
    for (const context of contexts) await context.dispose();
    for (const model of models) await model.dispose();
    await llama.dispose();
    rmSync(folder, { recursive: true, force: true });
  }
}
