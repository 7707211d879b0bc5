import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { populationBoardSchema, surveySchema } from '@agora/contract';
import { loadSurvey, parseSurvey } from '../src/config/survey-config';
import { type Runtime, systemRuntime } from '../src/services/ports/runtime';
import { DIALECTS } from './test-db';
import { ArenaClient, type TestArena, startTestArena } from './test-arena';

/** Two questions whose every option some test visitor picks, and a threshold a test reaches. */
const SURVEY = `
source: "test margins"
threshold: { min_votes: 6, min_visitors: 3 }
questions:
  - id: group
    label: { fr: "Groupe", en: "Group", da: "Gruppe", sv: "Grupp", lt: "Grupė" }
    options:
      - { id: x, share: 0.5, label: { fr: "x", en: "x", da: "x", sv: "x", lt: "x" } }
      - { id: y, share: 0.5, label: { fr: "y", en: "y", da: "y", sv: "y", lt: "y" } }
  - id: level
    label: { fr: "Niveau", en: "Level", da: "Niveau", sv: "Nivå", lt: "Lygis" }
    options:
      - { id: p, share: 0.3, label: { fr: "bas", en: "low", da: "lav", sv: "låg", lt: "žemas" } }
      - { id: q, share: 0.7, label: { fr: "haut", en: "high", da: "høj", sv: "hög", lt: "aukštas" } }
`;

/** The clock of the arena: moved a minute on to let the weighted board be computed again. */
class MovableClock {
  private offsetMs = 0;
  readonly runtime: Runtime = { ...systemRuntime, now: () => new Date(Date.now() + this.offsetMs) };
  later(): void {
    this.offsetMs += 61_000;
  }
}

async function voteOnce(client: ArenaClient): Promise<void> {
  const created = await client.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
  expect(created.status).toBe(201);
  await client.stream(created.json.id);
  expect((await client.request('POST', `/api/v1/duels/${created.json.id}/vote`, { choice: 'a' })).status).toBe(200);
}

describe('the example survey file', () => {
  it('parses, with shares rescaled to 1 and labels in every language; a bad file names the field', () => {
    const survey = loadSurvey(fileURLToPath(new URL('../../../docs/examples/survey.fr.yaml', import.meta.url)));
    expect(survey.questions.map((question) => question.id)).toEqual(['age_band', 'gender', 'education']);
    for (const question of survey.questions) expect(question.options.reduce((sum, option) => sum + option.share, 0)).toBeCloseTo(1, 12);
    expect(survey.threshold).toEqual({ minVotes: 1000, minVisitors: 100 });
    expect(() => parseSurvey(SURVEY.replace('share: 0.7', 'share: 0.9'), 'bad.yaml')).toThrow(
      /bad\.yaml: questions\.1\.options: shares sum to 1/,
    );
    expect(() => parseSurvey(SURVEY.replace('lt: "Grupė"', 'xx: "?"'), 'bad.yaml')).toThrow(/questions\.0\.label/);
  });
});

describe.each(DIALECTS)('population survey and weighted board ($name)', (dialect) => {
  let off: TestArena;
  let harness: TestArena;
  const clock = new MovableClock();
  beforeAll(async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agora-survey-'));
    writeFileSync(join(folder, 'survey.yaml'), SURVEY);
    off = await startTestArena(dialect);
    // These visitors vote at once: the timing rules, which would flag them, are off here (the next describe turns one on).
    harness = await startTestArena(dialect, {
      environment: { AGORA_SURVEY: join(folder, 'survey.yaml'), AGORA_INTEGRITY_MIN_VOTE_S: '0', AGORA_INTEGRITY_READING_CHARS_PER_S: '0' },
      runtime: clock.runtime,
    });
  });
  afterAll(async () => {
    await off?.close();
    await harness?.close();
  });

  it('is off without a survey file: nothing to show, answers refused, no weighted board', async () => {
    const client = new ArenaClient(off.baseUrl);
    expect((await client.request('GET', '/api/v1/survey')).json).toEqual({
      enabled: false,
      status: 'skipped',
      questions: [],
      answers: null,
    });
    expect((await client.request('PUT', '/api/v1/survey', { skipped: true })).status).toBe(404);
    const board = await client.request('GET', '/api/v1/leaderboard/population');
    expect(board.json).toMatchObject({ enabled: false, shown: false, reason: 'not_configured', models: [] });
    // The OpenAPI document lists the three operations, the PUT with its body.
    const paths = (await client.request('GET', '/api/v1/openapi.json')).json.paths;
    expect(Object.keys(paths['/api/v1/survey']).sort()).toEqual(['get', 'put']);
    expect(paths['/api/v1/survey'].put.requestBody).toBeDefined();
    expect(paths['/api/v1/leaderboard/population'].get).toBeDefined();
  });

  it('forgets answers older than the retention period, and no other', async () => {
    const { surveyAnswers } = harness.arena.store;
    await surveyAnswers.put({ visitorHash: 'old-visitor', answers: { group: 'x', level: 'p' }, answeredAt: '2020-01-01T00:00:00.000Z' });
    await surveyAnswers.put({ visitorHash: 'new-visitor', answers: null, answeredAt: '2026-01-01T00:00:00.000Z' });
    expect(await surveyAnswers.purgeBefore('2021-01-01T00:00:00.000Z')).toBe(1);
    expect(await surveyAnswers.find('old-visitor')).toBeUndefined();
    expect(await surveyAnswers.find('new-visitor')).toMatchObject({ answers: null });
    await surveyAnswers.erase('new-visitor');
  });

  it('is shown once: pending, then answered or skipped for good; bad answers are 400', async () => {
    const client = new ArenaClient(harness.baseUrl);
    const first = await client.request('GET', '/api/v1/survey?locale=lt');
    expect(surveySchema.parse(first.json)).toMatchObject({ enabled: true, status: 'pending', answers: null });
    expect(first.json.questions[1]).toEqual({
      id: 'level',
      label: 'Lygis',
      options: [
        { id: 'p', label: 'žemas' },
        { id: 'q', label: 'aukštas' },
      ],
    });
    for (const bad of [
      { answers: { group: 'z', level: 'p' } },
      { answers: { group: 'x' } },
      { answers: { group: 'x', level: 'p', extra: 'x' } },
      { answers: { group: 'x', level: 'p' }, skipped: true },
      { skipped: false },
      { answers: { 'Group!': 'x' } },
    ])
      expect((await client.request('PUT', '/api/v1/survey', bad)).status, JSON.stringify(bad)).toBe(400);
    expect((await client.request('GET', '/api/v1/survey')).json.status).toBe('pending');
    const answered = await client.request('PUT', '/api/v1/survey?locale=sv', { answers: { group: 'x', level: 'q' } });
    expect(answered.json).toMatchObject({ status: 'answered', answers: { group: 'x', level: 'q' } });
    expect(answered.json.questions[0].label).toBe('Grupp');
    expect((await client.request('GET', '/api/v1/survey')).json.status).toBe('answered');

    const skipper = new ArenaClient(harness.baseUrl);
    expect((await skipper.request('PUT', '/api/v1/survey', { skipped: true })).json).toMatchObject({ status: 'skipped', answers: null });
    expect((await skipper.request('GET', '/api/v1/survey')).json.status).toBe('skipped');
  });

  it('weighs the answering visitors’ votes once there are enough, and erasure takes the answers', async () => {
    const answers = [
      { group: 'x', level: 'p' },
      { group: 'x', level: 'q' },
      { group: 'y', level: 'p' },
      { group: 'y', level: 'q' },
    ];
    const visitors = answers.map(() => new ArenaClient(harness.baseUrl));
    for (const [index, visitor] of visitors.entries()) {
      expect((await visitor.request('PUT', '/api/v1/survey', { answers: answers[index] })).status).toBe(200);
      await voteOnce(visitor);
    }
    // A visitor who never answers: their vote counts in the share's denominator only.
    await voteOnce(new ArenaClient(harness.baseUrl));
    clock.later();
    const few = populationBoardSchema.parse((await harness.client.request('GET', '/api/v1/leaderboard/population')).json);
    expect(few).toMatchObject({ shown: false, reason: 'too_few_votes', n_votes: 5, answered_votes: 4, answered_visitors: 4, models: [] });
    expect(few.answered_share).toBeCloseTo(0.8, 12);

    for (const visitor of visitors.slice(0, 3)) await voteOnce(visitor);
    // Cached: the same answer within the minute.
    expect((await harness.client.request('GET', '/api/v1/leaderboard/population')).json.answered_votes).toBe(4);
    clock.later();
    const board = populationBoardSchema.parse((await harness.client.request('GET', '/api/v1/leaderboard/population')).json);
    expect(board).toMatchObject({ shown: true, reason: null, n_votes: 8, answered_votes: 7, answered_visitors: 4, source: 'test margins' });
    expect(board.raking!.converged).toBe(true);
    expect(board.models.length).toBeGreaterThan(0);
    // Group is balanced already; level p is half the visitors for 0.3 of the population: weights 0.6 (p) and 1.4 (q).
    // The first three visitors voted twice, the fourth (q) once: Kish's count of the 7 votes.
    const weights = [0.6, 0.6, 1.4, 1.4, 0.6, 0.6, 1.4];
    const sum = weights.reduce((total, w) => total + w, 0);
    expect(board.effective_votes!).toBeCloseTo(sum ** 2 / weights.reduce((total, w) => total + w * w, 0), 9);

    expect((await visitors[0]!.request('DELETE', '/api/v1/duels')).status).toBe(200);
    expect((await visitors[0]!.request('GET', '/api/v1/survey')).json.status).toBe('pending');
    clock.later();
    expect((await harness.client.request('GET', '/api/v1/leaderboard/population')).json).toMatchObject({
      answered_visitors: 3,
      shown: false,
    });
  });
});

describe.each(DIALECTS)('the weighted board and the integrity rules ($name)', (dialect) => {
  it('leaves out the votes the rules flag, as the main board does', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agora-survey-flags-'));
    writeFileSync(join(folder, 'survey.yaml'), SURVEY.replace('min_votes: 6, min_visitors: 3', 'min_votes: 2, min_visitors: 2'));
    const harness = await startTestArena(dialect, {
      environment: {
        AGORA_SURVEY: join(folder, 'survey.yaml'),
        // too_fast alone: a vote within 1.5 s of the answers is flagged, the reading rule is off.
        AGORA_INTEGRITY_MIN_VOTE_S: '1.5',
        AGORA_INTEGRITY_READING_CHARS_PER_S: '0',
        AGORA_LEADERBOARD_MIN_VOTES: '1',
      },
    });
    try {
      harness.fake.defaultBehaviour = { tokensPerSecond: 0 };
      const answers = [
        { group: 'x', level: 'p' },
        { group: 'x', level: 'q' },
        { group: 'y', level: 'p' },
        { group: 'y', level: 'q' },
      ];
      const honest = await Promise.all(
        answers.map(async (answer) => {
          const visitor = new ArenaClient(harness.baseUrl);
          expect((await visitor.request('PUT', '/api/v1/survey', { answers: answer })).status).toBe(200);
          const created = await visitor.request('POST', '/api/v1/duels', { prompt: 'Bonjour' });
          await visitor.stream(created.json.id);
          return { visitor, id: created.json.id as string };
        }),
      );
      // Honest visitors read the answers before voting; the flagged one votes three times at once.
      await new Promise((resolve) => setTimeout(resolve, 2500));
      for (const { visitor, id } of honest)
        expect((await visitor.request('POST', `/api/v1/duels/${id}/vote`, { choice: 'a' })).status).toBe(200);
      const hasty = new ArenaClient(harness.baseUrl);
      expect((await hasty.request('PUT', '/api/v1/survey', { answers: answers[0] })).status).toBe(200);
      for (let index = 0; index < 3; index++) await voteOnce(hasty);

      await harness.arena.leaderboards.refresh();
      const main = (await harness.client.request('GET', '/api/v1/leaderboard')).json as { n_votes: number };
      expect(main.n_votes).toBe(4);
      const board = populationBoardSchema.parse((await harness.client.request('GET', '/api/v1/leaderboard/population')).json);
      // Cast, the flagged votes stay in the share's denominator; they weigh nothing.
      expect(board).toMatchObject({ shown: true, n_votes: 7, answered_votes: 4, answered_visitors: 4 });
      expect(board.effective_votes!).toBeCloseTo((2 * 0.6 + 2 * 1.4) ** 2 / (2 * 0.6 ** 2 + 2 * 1.4 ** 2), 9);
    } finally {
      await harness.close();
    }
  });
});
