/**
 * Child process of the ranking benchmark: `generate FILE VOTES SEED` writes a seeded synthetic
 * vote file (docs/ranking.md#speed-anchors); `measure FILE` times every step on it and prints one JSON line with the
 * timings (ms) and the peak RSS (MB) of this process.
 */
import { createWriteStream } from 'node:fs';
import { loadavg } from 'node:os';
import {
  aggregatePairs,
  analyzeGraph,
  bootstrapBradleyTerry,
  bradleyTerryCovariance,
  buildStyleDesign,
  createSeededRandom,
  fitBradleyTerry,
  fitStyleBradleyTerry,
  RANKING_VARIANTS,
  type RandomSource,
} from '../src/domain/ranking';
import { readVoteFile } from '../src/adapters/vote-files';

const MODELS = 110;
const GAMMA = [0.6, 0.15, 0.1, 0.15];

function gaussian(random: RandomSource): number {
  return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
}

function pick(cumulative: Float64Array, random: RandomSource): number {
  const target = random.nextDouble() * cumulative[cumulative.length - 1]!;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle]! > target) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * θ ~ N(0, 0.65²), popularity-weighted pairing (lognormal popularity, rival ≠ first), fair A/B
 * swap, style counts, P(tie) = 0.32·4p(1 − p) with both-bad ties for weak pairs (about 27 % ties).
 */
async function generate(path: string, votes: number, seed: number): Promise<void> {
  const random = createSeededRandom(seed);
  const theta = Array.from({ length: MODELS }, () => 0.65 * gaussian(random));
  const popularity = Array.from({ length: MODELS }, () => Math.exp(gaussian(random)));
  const cumulative = new Float64Array(MODELS);
  popularity.reduce((sum, value, index) => (cumulative[index] = sum + value), 0);
  const names = theta.map((_, index) => `vendor${index % 17}/model-${String(index).padStart(3, '0')}-instruct`);
  const verbosity = Array.from({ length: MODELS }, () => Math.exp(0.5 * gaussian(random)));
  const out = createWriteStream(path);
  let buffer = '';
  for (let index = 0; index < votes; index++) {
    const first = pick(cumulative, random);
    let rival = first;
    while (rival === first) rival = pick(cumulative, random);
    const [a, b] = random.nextDouble() < 0.5 ? [first, rival] : [rival, first];
    const counts = [a, b].map((model) => [
      Math.round(verbosity[model]! * (150 + 400 * random.nextDouble())),
      Math.floor(random.nextDouble() * 4 * verbosity[model]!),
      Math.floor(random.nextDouble() * 8 * verbosity[model]!),
      Math.floor(random.nextDouble() * 5),
    ]);
    let z = theta[a]! - theta[b]!;
    for (let feature = 0; feature < 4; feature++) {
      const x = counts[0]![feature]!;
      const y = counts[1]![feature]!;
      z += GAMMA[feature]! * ((x - y) / (x + y + 1));
    }
    const p = 1 / (1 + Math.exp(-z));
    let winner: string;
    if (random.nextDouble() < 0.32 * 4 * p * (1 - p)) {
      const bothBad = 1 / (1 + Math.exp((theta[a]! + theta[b]!) / 2 + 0.4));
      winner = random.nextDouble() < bothBad ? 'tie_bothbad' : 'tie';
    } else {
      winner = random.nextDouble() < p ? 'model_a' : 'model_b';
    }
    const [ca, cb] = counts as [number[], number[]];
    buffer += `{"model_a":"${names[a]}","model_b":"${names[b]}","winner":"${winner}","len_a":${ca[0]},"len_b":${cb[0]},"headers_a":${ca[1]},"headers_b":${cb[1]},"lists_a":${ca[2]},"lists_b":${cb[2]},"bold_a":${ca[3]},"bold_b":${cb[3]}}\n`;
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      buffer = '';
    }
  }
  out.write(buffer);
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
}

function timed<T>(run: () => T): [T, number] {
  const start = performance.now();
  const value = run();
  return [value, performance.now() - start];
}

/** Best of `repeats` timings of `run` (after the first, cold call has been timed separately). */
function warm<T>(run: () => T, repeats = 3): number {
  let best = Number.POSITIVE_INFINITY;
  for (let repeat = 0; repeat < repeats; repeat++) best = Math.min(best, timed(run)[1]);
  return best;
}

async function measure(path: string, bootstrapRounds: number): Promise<void> {
  const parseStart = performance.now();
  const cpuStart = process.cpuUsage();
  const { table } = await readVoteFile(path);
  const parse = performance.now() - parseStart;
  const cpu = process.cpuUsage(cpuStart);
  const parseCpu = (cpu.user + cpu.system) / 1000;
  // cold: what one CLI run pays
  const [pairs, aggregateCold] = timed(() => aggregatePairs(table));
  const [graph, sccCold] = timed(() => analyzeGraph(pairs));
  const [fit, pointFitCold] = timed(() => fitBradleyTerry(pairs, { lambdaTheta: 0, components: graph.components }));
  const [, standardErrorsCold] = timed(() => bradleyTerryCovariance(pairs, fit.theta, 0, graph.components));
  const endToEnd = parse + aggregateCold + sccCold + pointFitCold + standardErrorsCold;
  // warm: the cost of the computation itself
  const aggregate = warm(() => aggregatePairs(table));
  const scc = warm(() => analyzeGraph(pairs));
  const pointFit = warm(() => fitBradleyTerry(pairs, { lambdaTheta: 0, components: graph.components }));
  const standardErrors = warm(() => bradleyTerryCovariance(pairs, fit.theta, 0, graph.components));
  const [boot, bootstrap] = timed(() =>
    bootstrapBradleyTerry(pairs, {
      rounds: bootstrapRounds,
      lambdaTheta: 0,
      initialTheta: fit.theta,
      gaugeComponents: graph.components,
      gaugeReference: graph.components,
      random: createSeededRandom(1),
    }),
  );
  const [design, styleFeatures] = timed(() => buildStyleDesign(table));
  const style = RANKING_VARIANTS.style_fastchat;
  const styleOptions = { lambdaTheta: style.lambdaTheta, lambdaBeta: style.lambdaBeta, components: graph.components };
  // the style fit starts from the plain fit with the same λθ, as fitVariant does
  const [styleFit, styleFitMs] = timed(() => {
    const start = fitBradleyTerry(pairs, { lambdaTheta: style.lambdaTheta, components: graph.components });
    return fitStyleBradleyTerry(design.rows, { ...styleOptions, initialTheta: start.theta });
  });
  const [, styleWithCovariance] = timed(() => {
    const start = fitBradleyTerry(pairs, { lambdaTheta: style.lambdaTheta, components: graph.components });
    return fitStyleBradleyTerry(design.rows, { ...styleOptions, initialTheta: start.theta, withCovariance: true });
  });
  const result = {
    votes: table.length,
    models: table.models.length,
    cells: pairs.length,
    parse,
    parseCpu,
    aggregateCold,
    sccCold,
    pointFitCold,
    standardErrorsCold,
    aggregate,
    scc,
    pointFit,
    pointFitIterations: fit.iterations,
    standardErrors,
    bootstrap,
    bootstrapRounds: boot.rounds,
    bootstrapRoundsWithoutMle: boot.roundsWithoutMle,
    styleFeatures,
    styleFit: styleFitMs,
    styleFitIterations: styleFit.iterations,
    styleWithCovariance,
    endToEnd,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    load: loadavg()[0]!,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

const [mode, path, ...rest] = process.argv.slice(2);
if (mode === 'generate' && path) await generate(path, Number(rest[0]), Number(rest[1] ?? 1));
else if (mode === 'measure' && path) await measure(path, Number(rest[0] ?? 1000));
else {
  process.stderr.write('usage: ranking-bench-worker (generate FILE VOTES SEED | measure FILE ROUNDS)\n');
  process.exit(2);
}
