import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotator, catalogueWithAnnotatorYaml } from './annotator-fixture';
import { runAgora } from './run-agora';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena } from './test-arena';

describe.each(DIALECTS)('agora postprocess ($name)', (dialect) => {
  let harness: TestArena;
  let folder: string;
  let environment: Record<string, string>;
  const duelIds: string[] = [];

  beforeAll(async () => {
    // The background job is off: the stored duels wait for the backfill.
    harness = await startTestArena(dialect, { catalogue: catalogueWithAnnotator, environment: { AGORA_POSTPROCESS: '0' } });
    harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
    harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    folder = mkdtempSync(join(tmpdir(), 'agora-postprocess-'));
    writeFileSync(join(folder, 'models.yaml'), catalogueWithAnnotatorYaml(harness.fake.baseUrl));
    const location = harness.store.location;
    environment = {
      DATABASE_URL: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url,
      AGORA_MODELS: join(folder, 'models.yaml'),
    };
    for (const prompt of [
      'Explique la photosynthèse simplement.',
      'Mon IBAN est FR14 2004 1010 0505 0001 3M02 606, est-il valide ?',
      'Ma voisine Josiane Morel est malade, que lui offrir ?',
    ]) {
      const created = await harness.client.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
      await harness.client.stream(created.json.id);
      duelIds.push(created.json.id as string);
    }
  });
  afterAll(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('screens every stored conversation once with the rules alone, then again when a model is given', async () => {
    const rulesOnly = await runAgora(['postprocess', '--no-model'], '', environment);
    // Not a terminal: no bar, and a closing line with the counts.
    expect(rulesOnly.stderr).toMatch(/^post-processed 3 conversations in \d+\.\d s \(\d+\/s\): 3 done, 1 flagged, 0 to retry, 0 failed\n$/);
    expect(rulesOnly.code).toBe(0);
    expect(JSON.parse(rulesOnly.stdout)).toMatchObject({ processed: 3, done: 3, flagged: 1, failed: 0, model: 'not_configured' });
    expect(await harness.arena.store.annotations.find(duelIds[1]!)).toMatchObject({
      containsPii: true,
      piiRuleKinds: ['iban'],
      modelStatus: 'not_configured',
    });

    const again = await runAgora(['postprocess', '--no-model'], '', environment);
    expect(JSON.parse(again.stdout)).toMatchObject({ processed: 0 });

    const withModel = await runAgora(['postprocess', '--model', ANNOTATOR.id], '', environment);
    expect(withModel.code).toBe(0);
    expect(JSON.parse(withModel.stdout)).toMatchObject({
      processed: 3,
      done: 3,
      flagged: 2,
      model: 'configured',
      store: { done: 3, model_done: 3 },
    });
    expect(await harness.arena.store.annotations.find(duelIds[2]!)).toMatchObject({
      containsPii: true,
      piiModelKinds: ['name', 'health'],
      categories: ['Health & Wellness & Medicine'],
    });
  }, 90_000); // three runs of the command, each starting a process and its threads: about 8 s each on a busy 2-core runner

  it('names the flag when the model is not in the catalogue, and touches nothing', async () => {
    const outcome = await runAgora(['postprocess', '--model', 'no-such-model'], '', environment);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/^agora: --model: no model "no-such-model" in the catalogue/);
    expect(outcome.stdout).toBe('');
  });
});

describe('agora pii --llm', () => {
  let harness: TestArena;
  let folder: string;
  beforeAll(async () => {
    harness = await startTestArena(DIALECTS[0]!, { catalogue: catalogueWithAnnotator, environment: { AGORA_POSTPROCESS: '0' } });
    folder = mkdtempSync(join(tmpdir(), 'agora-pii-'));
    writeFileSync(join(folder, 'models.yaml'), catalogueWithAnnotatorYaml(harness.fake.baseUrl));
  });
  afterAll(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('adds the kinds the model finds to those of the rules, line by line', async () => {
    harness.fake.behave(ANNOTATOR.upstream, { tokensPerSecond: 0, text: annotatorAnswer });
    const requestsBefore = harness.fake.requestsFor(ANNOTATOR.upstream).length;
    const input = [
      'Victor Hugo a écrit Les Misérables.',
      'Josiane Morel, ma voisine, a un diabète. Son mail : josiane.morel@free.fr',
      '',
      '',
    ].join('\n');
    const outcome = await runAgora(['pii', '--llm', ANNOTATOR.id], input, { AGORA_MODELS: join(folder, 'models.yaml') });
    expect(outcome).toMatchObject({ code: 0, stderr: '' });
    expect(
      outcome.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([
      { pii: false, kinds: [] },
      { pii: true, kinds: ['email', 'name', 'health'] },
      { pii: false, kinds: [] },
    ]);
    // Public figures are left to the model, and the empty line was not sent to it.
    expect(harness.fake.requestsFor(ANNOTATOR.upstream).length - requestsBefore).toBe(2);
  });

  it('keeps the rules verdict and exits 1 when the model layer fails', async () => {
    harness.fake.behave(ANNOTATOR.upstream, { httpStatus: 500 });
    const outcome = await runAgora(['pii', '--llm', ANNOTATOR.id], 'Appelle-moi au 06 12 34 56 78\n', {
      AGORA_MODELS: join(folder, 'models.yaml'),
    });
    expect(outcome.code).toBe(1);
    expect(JSON.parse(outcome.stdout)).toMatchObject({ pii: true, kinds: ['phone'], model_error: expect.stringMatching(/HTTP 500/) });
    expect(outcome.stderr).toMatch(/model layer failed on 1 line/);
  });

  it('refuses an unknown model with a usage error', async () => {
    const outcome = await runAgora(['pii', '--llm', 'mistral-small'], 'texte\n', { AGORA_MODELS: join(folder, 'models.yaml') });
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(/^agora: --llm: no model "mistral-small" in the catalogue/);
  });
});
