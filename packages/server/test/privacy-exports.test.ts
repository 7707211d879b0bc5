import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANNOTATOR, annotatorAnswer, catalogueWithAnnotator, catalogueWithAnnotatorYaml } from './annotator-fixture';
import { filesUnder, subsetJsonl } from './export-files';
import { runAgora } from './run-agora';
import { DIALECTS } from './test-db';
import { type TestArena, startTestArena, until } from './test-arena';

const TOKEN = 'privacy-token-0123456789';

/**
 * Acceptance line 1 of the data pipeline, end to end through the real arena, the background
 * post-processing (rules and model layer), the review API and `agora export`: whatever either layer
 * flags, whatever a visitor reports until a reviewer includes it, and whatever could not be
 * screened is absent from every dataset with its votes and reactions; no export holds a cookie, a
 * visitor id or an IP.
 */
/** Comments a visitor typed with personal data in them: withheld from every export. */
const PERSONAL_COMMENTS = {
  reaction: 'Trop court, rappelez-moi au 06 12 34 56 78.',
  voteA: 'Écrivez-moi à paul.martin@orange.fr pour la suite.',
  voteB: 'Remboursez-moi sur FR76 3000 6000 0112 3456 7890 189 merci.',
};

describe.each(DIALECTS)('what the open datasets leave out ($name)', (dialect) => {
  let harness: TestArena;
  let folder: string;
  let environment: Record<string, string>;
  /** A marker in each duel's prompt, found in exports only if the duel is. */
  const prompts = {
    clean: 'Explique la photosynthèse [marker-clean-7f3a] à un enfant.',
    /** A clean conversation whose visitor typed personal data in the comments of its reaction and vote. */
    commented: 'Donne trois idées de dîner [marker-commented-e4d2] pour la semaine.',
    includedFalsePositive:
      'Victor Hugo est né le 26 février 1802 [marker-fp-91c2] ; écris sa biographie à partir du 1er janvier 1990, né le 12/03/1985 ?',
    byRules: 'Mon adresse est amelie.rousseau@wanadoo.fr [marker-rules-2b8e], réponds-moi.',
    byModel: 'Ma voisine Josiane Morel [marker-model-c41d] a un cancer, comment la soutenir ?',
    reportedExcluded: 'Raconte la journée de mon fils [marker-reported-x-55e0] à l’école.',
    reportedPending: 'Décris la maladie de mon collègue [marker-reported-p-0d17].',
    screeningFailed: 'ÉCHEC-ANNOTATION [marker-failed-a3b9] : une question simple.',
    neverScreened: 'Une conversation sans vote [marker-unscreened-6c1f].',
  } as const;
  const ids = {} as Record<keyof typeof prompts, string>;

  beforeAll(async () => {
    harness = await startTestArena(dialect, {
      catalogue: catalogueWithAnnotator,
      environment: {
        AGORA_ADMIN_TOKEN: TOKEN,
        AGORA_ANNOTATION_MODEL: ANNOTATOR.id,
        AGORA_POSTPROCESS_EVERY_S: '0.05',
        AGORA_POSTPROCESS_MAX_ATTEMPTS: '2',
        AGORA_POSTPROCESS_IDLE_S: '3600',
      },
    });
    harness.fake.defaultBehaviour = {
      tokensPerSecond: 0,
      text: 'Voici une réponse simple et complète, écrite en français pour tout le monde.',
    };
    // The model layer flags the named private person, and cannot answer for the "ÉCHEC" conversation.
    harness.fake.behave(ANNOTATOR.upstream, {
      tokensPerSecond: 0,
      text: (message) => (message.includes('ÉCHEC-ANNOTATION') ? 'désolé, pas de JSON' : annotatorAnswer(message)),
    });
    for (const [key, prompt] of Object.entries(prompts) as [keyof typeof prompts, string][]) {
      const created = await harness.client.request('POST', '/api/v1/duels', { prompt, mode: 'random' });
      expect(created.status).toBe(201);
      await harness.client.stream(created.json.id);
      ids[key] = created.json.id as string;
      if (key === 'neverScreened') continue;
      expect(
        (
          await harness.client.request('POST', `/api/v1/duels/${ids[key]}/reactions`, {
            side: 'b',
            turn: 1,
            value: 'dislike',
            tags: ['superficial'],
            comment: key === 'commented' ? PERSONAL_COMMENTS.reaction : `reaction ${key}`,
          })
        ).status,
      ).toBe(200);
      expect(
        (
          await harness.client.request('POST', `/api/v1/duels/${ids[key]}/vote`, {
            choice: 'a',
            comments: key === 'commented' ? { a: PERSONAL_COMMENTS.voteA, b: PERSONAL_COMMENTS.voteB } : { a: `vote ${key}` },
          })
        ).status,
      ).toBe(200);
    }
    for (const key of ['reportedExcluded', 'reportedPending'] as const) {
      expect((await harness.client.request('POST', `/api/v1/duels/${ids[key]}/report`, { reason: 'données personnelles' })).status).toBe(
        202,
      );
    }
    for (const key of Object.keys(prompts) as (keyof typeof prompts)[]) {
      if (key === 'neverScreened') continue;
      const expected = key === 'screeningFailed' ? 'failed' : 'done';
      await until(
        () => harness.arena.store.annotations.find(ids[key]),
        (found) => found?.status === expected,
      );
    }
    const admin = { authorization: `Bearer ${TOKEN}` };
    const decide = (id: string, decision: string) =>
      harness.client.request('PUT', `/api/v1/admin/review/${id}`, { decision, reviewer: 'test-reviewer' }, admin);
    expect((await decide(ids.includedFalsePositive, 'include')).status).toBe(200);
    expect((await decide(ids.reportedExcluded, 'exclude')).status).toBe(200);

    folder = mkdtempSync(join(tmpdir(), 'agora-privacy-'));
    writeFileSync(join(folder, 'models.yaml'), catalogueWithAnnotatorYaml(harness.fake.baseUrl));
    const location = harness.store.location;
    environment = {
      DATABASE_URL: location.kind === 'sqlite' ? `sqlite:${location.path}` : location.url,
      AGORA_MODELS: join(folder, 'models.yaml'),
    };
  });
  afterAll(async () => {
    await harness.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the screening saw what it should: the false positive and the model flag are where expected', async () => {
    expect(await harness.arena.store.annotations.find(ids.includedFalsePositive)).toMatchObject({
      containsPii: true,
      piiRuleKinds: ['birth_date'],
    });
    expect(await harness.arena.store.annotations.find(ids.byRules)).toMatchObject({ containsPii: true, piiRuleKinds: ['email'] });
    expect(await harness.arena.store.annotations.find(ids.byModel)).toMatchObject({ containsPii: true, piiModelKinds: ['name', 'health'] });
    expect(await harness.arena.store.annotations.find(ids.clean)).toMatchObject({ containsPii: false });
    expect(await harness.arena.store.annotations.find(ids.neverScreened)).toBeUndefined();
  });

  it('exports only the clean conversations and the reviewed false positive, with their votes and reactions, in every dataset and format; comments with personal data are withheld', async () => {
    const out = join(folder, 'export');
    const outcome = await runAgora(['export', '--out', out, '--format', 'parquet,jsonl'], '', environment);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);

    const conversations = subsetJsonl(out, 'conversations');
    const opening = (row: Record<string, unknown>) => String(row.opening_msg);
    const published = [prompts.clean, prompts.commented, prompts.includedFalsePositive].sort();
    expect(conversations.map(opening).sort()).toEqual(published);
    const votes = subsetJsonl(out, 'votes');
    expect(votes.map(opening).sort()).toEqual(published);
    // The commented conversation is published; its comments, which hold an e-mail, an IBAN and a phone number, are not.
    expect(votes.find((row) => opening(row) === prompts.commented)).toMatchObject({ conv_comments_a: null, conv_comments_b: null });
    expect(votes.find((row) => opening(row) === prompts.clean)).toMatchObject({ conv_comments_a: 'vote clean' });
    expect(
      subsetJsonl(out, 'reactions')
        .map((row) => row.comment)
        .sort(),
    ).toEqual([null, 'reaction clean', 'reaction includedFalsePositive']);
    expect(subsetJsonl(out, 'dpo')).toHaveLength(3);
    expect(subsetJsonl(out, 'kto').length).toBeGreaterThan(0);

    // Every byte of every file, Parquet and card included.
    const everything = filesUnder(out)
      .map((path) => readFileSync(path).toString('latin1') + readFileSync(path, 'utf8'))
      .join('\n');
    for (const [key, prompt] of Object.entries(prompts)) {
      const marker = /\[(marker-[^\]]+)\]/.exec(prompt)![1]!;
      const exported = key === 'clean' || key === 'commented' || key === 'includedFalsePositive';
      expect({ key, present: everything.includes(marker) }).toEqual({ key, present: exported });
      if (!exported) {
        expect({ key, present: everything.includes(`vote ${key}`) || everything.includes(`reaction ${key}`) }).toEqual({
          key,
          present: false,
        });
      }
    }
    for (const personal of ['paul.martin@orange.fr', 'FR76 3000 6000 0112 3456 7890 189', '06 12 34 56 78'])
      expect({ personal, present: everything.includes(personal) }).toEqual({ personal, present: false });
    const cookie = (harness.client as unknown as { cookie: string }).cookie.split('=')[1]!;
    const visitorHash = (await harness.arena.store.duels.findById(ids.clean))!.visitorHash;
    expect(cookie.length).toBeGreaterThan(10);
    expect(everything.includes(cookie)).toBe(false);
    expect(everything.includes(visitorHash)).toBe(false);
    expect(everything.includes('127.0.0.1')).toBe(false);
    // The visitor can still be grouped: one salted id for all of their exported conversations.
    expect(new Set(conversations.map((row) => row.visitor_id)).size).toBe(1);
    expect(String(conversations[0]!.visitor_id)).toMatch(/^[0-9a-f]{16,}$/);
  });
});
