import { describe, expect, it } from 'vitest';
import { BandIndex } from './band-index';
import { PageClustering, type StoredClusters } from './page-clustering';
import { type SignedPrompt, assignSignedClusters, signPrompt } from './prompt-cluster-index';
import { SIGNATURE_LENGTH } from './prompt-clusters';

/** Stored clusters in member order, as an instance's index keeps them. */
function storedOf(clusters: readonly SignedPrompt[], order: StoredClusters['order'] = () => null): StoredClusters {
  const bands = new BandIndex();
  const signatures = new Uint32Array(Math.max(1, clusters.length) * SIGNATURE_LENGTH);
  clusters.forEach((cluster, member) => {
    bands.add(cluster.bands!);
    signatures.set(cluster.signature!, member * SIGNATURE_LENGTH);
  });
  return {
    bands,
    signatures: () => signatures,
    order,
    memberOf: (id) => {
      const member = clusters.findIndex((cluster) => cluster.id === id);
      return member < 0 ? undefined : member;
    },
    idOf: (member) => clusters[member]!.id,
  };
}

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

const WORDS = 'le la les un une de du et à en pour avec sur dans que qui comment énergie recette histoire ville musique'.split(' ');

describe('a page’s clusters without candidate objects', () => {
  it('chooses as the candidate lists do, where each prompt meets hundreds of clusters', () => {
    const random = seeded(2026_12_07);
    const sentences = Array.from({ length: 300 }, () =>
      Array.from({ length: 5 + Math.floor(random() * 8) }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' '),
    );
    const prompts = Array.from({ length: 1500 }, (_, index) => {
      const text = Array.from({ length: 1 + Math.floor(random() * 2) }, () => sentences[Math.floor(random() * sentences.length)]).join(' ');
      return signPrompt(`duel-${index}`, random() < 0.2 ? text.toUpperCase() : text);
    });
    const stored: SignedPrompt[] = [];
    let joinedStored = 0;
    for (let start = 0; start < prompts.length; start += 250) {
      const page = prompts.slice(start, start + 250);
      const expected = assignSignedClusters(page, (bands) => {
        const keys = new Set(bands);
        return stored
          .filter((cluster) => cluster.bands!.some((band) => keys.has(band)))
          .map(({ id, signature }) => ({ cluster: id, signature: signature! }));
      });
      const found = new PageClustering(storedOf(stored)).assign(page);
      expect(found).toEqual(expected);
      for (const assignment of found) {
        if (assignment?.founded) stored.push({ id: assignment.cluster, signature: assignment.signature!, bands: assignment.bands! });
        else if (assignment && stored.some((cluster) => cluster.id === assignment.cluster)) joinedStored++;
      }
    }
    expect(joinedStored).toBeGreaterThan(100);
  });

  it('gives a tie to the cluster met first, in the stored order when the member numbers are not it', () => {
    const founding = signPrompt('', 'Quelle est la recette de la tarte aux pommes ?');
    const stored = [
      { ...founding, id: 'later' },
      { ...founding, id: 'earlier' },
    ];
    const prompt = signPrompt('duel-new', 'QUELLE EST LA RECETTE DE LA TARTE AUX POMMES');
    expect(new PageClustering(storedOf(stored)).assign([prompt])[0]?.cluster).toBe('later');
    const byId = (left: number, right: number) => stored[left]!.id.localeCompare(stored[right]!.id);
    expect(new PageClustering(storedOf(stored, () => byId)).assign([prompt])[0]?.cluster).toBe('earlier');
  });
});
