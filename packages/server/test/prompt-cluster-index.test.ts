import { afterEach, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { DIALECTS, type TestStore } from './test-db';
import { openDatabase } from '../src/db/dialect';
import { migrateToLatest } from '../src/db/migrate';
import type { Database } from '../src/db/database';
import { createStore } from '../src/db/unit-of-work';
import { BandIndex } from '../src/domain/prompts/band-index';
import { type SignedPrompt, assignSignedClusters, signPrompt } from '../src/domain/prompts/prompt-cluster-index';
import { type ClusterCandidate, bandKeys, promptSignature } from '../src/domain/prompts/prompt-clusters';
import { assignPromptClusters } from '../src/services/prompt-cluster-assignment';
import { PromptClusterIndex } from '../src/services/prompt-cluster-index';
import * as sequence from '../src/db/migrations/2026_12_10_174600_prompt_cluster_sequence';

const PAGE = 40;
const WORDS =
  'le la un de et pour avec comment pourquoi énergie recette histoire ville musique climat santé est très the of how why city music'.split(
    ' ',
  );

/** xorshift32: the same prompts on every run. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** 600 prompts from a small vocabulary (many share band keys), a quarter of them edits of earlier ones (near duplicates). */
function seededPrompts(): { id: string; prompt: string }[] {
  const random = seeded(35_6);
  const prompts: string[] = [];
  for (let index = 0; index < 600; index++) {
    const earlier = prompts[Math.floor(random() * prompts.length)];
    if (earlier !== undefined && random() < 0.25) {
      const edit = random();
      prompts.push(
        edit < 0.3 ? earlier.toUpperCase() : edit < 0.6 ? `${earlier} ${WORDS[Math.floor(random() * WORDS.length)]}` : earlier.slice(1),
      );
    } else prompts.push(Array.from({ length: 4 + Math.floor(random() * 6) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' '));
  }
  return prompts.map((prompt, index) => ({ id: `duel-${String(index).padStart(4, '0')}`, prompt }));
}

/** Two pages share each instant: the tie between clusters founded at the same time goes to the cluster id. */
const pageTime = (page: number) => new Date(Date.UTC(2026, 11, 7, 12, Math.floor(page / 2)));

/**
 * The clusters as the store's band rows gave them before the in-memory index (2026_12_09_110200):
 * page by page, the stored clusters sharing a band key with the page, oldest first then by id.
 */
function referenceClusters(prompts: readonly { id: string; prompt: string }[], time = pageTime): string[] {
  const stored: (ClusterCandidate & { createdAt: string; keys: Set<string> })[] = [];
  const clusters: string[] = [];
  for (let start = 0, page = 0; start < prompts.length; start += PAGE, page++) {
    const signed: SignedPrompt[] = prompts.slice(start, start + PAGE).map(({ id, prompt }) => signPrompt(id, prompt));
    const createdAt = time(page).toISOString();
    const known = (bands: readonly string[]) =>
      stored
        .filter((cluster) => bands.some((band) => cluster.keys.has(band)))
        .sort((left, right) => left.createdAt.localeCompare(right.createdAt) || left.cluster.localeCompare(right.cluster));
    for (const assignment of assignSignedClusters(signed, known)) {
      clusters.push(assignment?.cluster ?? '');
      if (assignment?.founded)
        stored.push({ cluster: assignment.cluster, signature: assignment.signature!, createdAt, keys: new Set(assignment.bands) });
    }
  }
  return clusters;
}

describe('band index', () => {
  it('finds exactly the clusters that have a key, through its growth', () => {
    const index = new BandIndex();
    const signatures = Array.from({ length: 3000 }, (_, index) => promptSignature(`question ${index % 1000} numéro ${index}`)!);
    const keys = signatures.map(bandKeys);
    keys.forEach((clusterKeys, member) => expect(index.add(clusterKeys)).toBe(member));
    for (const probe of [0, 1, 999, 2999]) {
      const key = keys[probe]![7]!;
      const found: number[] = [];
      index.lookup(key, (member) => found.push(member));
      const expected = keys.flatMap((clusterKeys, member) => (clusterKeys[7] === key ? [member] : []));
      expect(found.sort((left, right) => left - right)).toEqual(expected);
    }
    const none: number[] = [];
    index.lookup('7:0123456789abcdef', (member) => none.push(member));
    expect(none).toEqual([]);
  });
});

describe.each(DIALECTS)('prompt cluster index ($name)', (dialect) => {
  let testStore: TestStore | undefined;
  const opened: Kysely<Database>[] = [];
  afterEach(async () => {
    for (const db of opened.splice(0)) await db.destroy();
    await testStore?.drop();
  });

  /** An instance's own connection to the store and its own index, as a server process has. */
  const instance = (location: TestStore['location']) => {
    const db = openDatabase(location);
    opened.push(db);
    return new PromptClusterIndex(createStore(db).promptClusters);
  };

  it('keeps the clusters stored before the sequence, numbered in their order of founding', async () => {
    testStore = await dialect.create();
    const db = openDatabase(testStore.location);
    opened.push(db);
    await migrateToLatest(db);
    // The schema before 2026_12_10_174600, with clusters founded at two instants.
    await sequence.down(db as Kysely<unknown>);
    const signature = (prompt: string) => Array.from(promptSignature(prompt)!, (value) => value.toString(16).padStart(8, '0')).join('');
    await (db as Kysely<unknown>)
      .insertInto('prompt_clusters' as never)
      .values([
        { cluster: 'later', signature: signature('une question posée plus tard'), created_at: '2026-12-08T00:00:00.000Z' },
        { cluster: 'b-first', signature: signature('la première question posée'), created_at: '2026-12-07T00:00:00.000Z' },
        { cluster: 'a-first', signature: signature('une autre première question'), created_at: '2026-12-07T00:00:00.000Z' },
      ] as never)
      .execute();
    await sequence.up(db as Kysely<unknown>);
    const stored = await createStore(db).promptClusters.listAfter(0, 10);
    expect(stored.map(({ seq, cluster }) => [seq, cluster])).toEqual([
      [1, 'a-first'],
      [2, 'b-first'],
      [3, 'later'],
    ]);
    expect(stored[2]!.signature).toEqual(promptSignature('une question posée plus tard'));
    const index = instance(testStore.location);
    await index.catchUp();
    expect(index.candidatesByBand(bandKeys(promptSignature('UNE QUESTION POSÉE PLUS TARD')!)).map((found) => found.cluster)).toEqual([
      'later',
    ]);
  });

  it.each([
    { clocks: 'in step', time: pageTime },
    // The second instance's clock runs 90 s behind: it stamps its clusters before those the first one founded earlier.
    { clocks: 'apart', time: (page: number) => new Date(pageTime(page).getTime() - (page % 2) * 90_000) },
  ])('gives the same clusters as the store’s band rows did, across two instances and a restart (clocks $clocks)', async ({ time }) => {
    testStore = await dialect.create();
    const db = openDatabase(testStore.location);
    opened.push(db);
    await migrateToLatest(db);
    const prompts = seededPrompts();
    const expected = referenceClusters(prompts, time);
    // The set has work for the index: prompts that join a cluster founded on an earlier page.
    const crossPage = expected.filter((cluster, index) => {
      const founder = prompts.findIndex((prompt) => prompt.id === cluster);
      return founder >= 0 && Math.floor(founder / PAGE) < Math.floor(index / PAGE);
    });
    expect(crossPage.length).toBeGreaterThan(20);

    // Pages alternate between two instances; the first restarts halfway (a new index, built from the store).
    const instances = [instance(testStore.location), instance(testStore.location)];
    const clusters: string[] = [];
    for (let start = 0, page = 0; start < prompts.length; start += PAGE, page++) {
      if (page === 8) instances[0] = instance(testStore.location);
      const conversations = prompts
        .slice(start, start + PAGE)
        .map(({ id, prompt }) => ({ duelId: id, previous: undefined, firstPrompt: prompt }));
      clusters.push(...(await assignPromptClusters(instances[page % 2]!, conversations, time(page))));
    }
    expect(clusters).toEqual(expected);
    // A third instance started afterwards knows every founded cluster.
    const late = instance(testStore.location);
    await late.catchUp();
    expect(late.size).toBe(new Set(expected.filter((cluster) => cluster !== '')).size);
  });
});
