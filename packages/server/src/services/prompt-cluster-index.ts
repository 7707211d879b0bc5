import { BandIndex } from '../domain/prompts/band-index';
import { PageClustering, type StoredClusters } from '../domain/prompts/page-clustering';
import type { ClusterAssignment, SignedPrompt } from '../domain/prompts/prompt-cluster-index';
import { type ClusterCandidate, SIGNATURE_LENGTH, bandKeys } from '../domain/prompts/prompt-clusters';
import type { PromptClusterRepository } from '../db/repositories/prompt-cluster.repository';

/** localeCompare's collation (the default locale's), made once rather than at each comparison. */
const COLLATOR = new Intl.Collator();

/** Clusters read per statement when the index is first built. */
const LOAD_PAGE = 5000;
/**
 * How far behind the last sequence number seen each look starts again: on PostgreSQL two
 * instances' inserts may commit out of the order of their sequence numbers, and a cluster whose
 * number was taken before one already seen would otherwise never be read.
 */
const OVERLAP = 500;

/** A stored cluster that shares band keys with a page, and the keys it shares. */
export type SharedCandidate = ClusterCandidate & { bands: string[] };

/**
 * The stored clusters' band keys and founding signatures, kept in memory by one post-processing
 * instance (docs/arena.md#post-processing-throughput): built from the store on the first page, then
 * followed by the clusters' sequence numbers, since other instances found clusters too. The store
 * stays the truth (a restart builds the index again from it). What it finds is what the index rows
 * of the store found before: the clusters sharing a band key with a page's prompts, oldest first.
 * About 1 kB a cluster: the signature's 512 bytes, the band keys' 400–500.
 */
export class PromptClusterIndex {
  private readonly bands = new BandIndex();
  /** Member number → cluster id, founding time, and (in `signatures`) founding signature. */
  private readonly clusters: string[] = [];
  private readonly createdAt: string[] = [];
  private signatures = new Uint32Array(SIGNATURE_LENGTH * 1024);
  /** Cluster id → member number. */
  private readonly known = new Map<string, number>();
  /** Whether the member numbers are in the order candidates are met (oldest first, then by id): true unless an instance caught up a cluster founded before one it had. */
  private inOrder = true;
  private seenSeq = 0;
  private built = false;
  private readonly pages: PageClustering;

  constructor(private readonly repository: PromptClusterRepository) {
    const stored: StoredClusters = {
      bands: this.bands,
      signatures: () => this.signatures,
      order: () => (this.inOrder ? null : this.compareMembers),
      memberOf: (cluster) => this.known.get(cluster),
      idOf: (member) => this.clusters[member]!,
    };
    this.pages = new PageClustering(stored);
  }

  /**
   * The clusters a page's prompts join or found, against the stored clusters in the index (caught
   * up first by the caller) and those the page founds; the same as assignSignedClusters over
   * {@link candidatesByBand}, without its candidate objects.
   */
  assignPage(prompts: readonly SignedPrompt[]): (ClusterAssignment | null)[] {
    return this.pages.assign(prompts);
  }

  /** Clusters in the index. */
  get size(): number {
    return this.clusters.length;
  }

  /** Takes in the clusters stored since the last look (every stored cluster on the first). */
  async catchUp(): Promise<void> {
    if (!this.built) {
      for (;;) {
        const page = await this.repository.listAfter(this.seenSeq, LOAD_PAGE);
        for (const stored of page) this.remember(stored.cluster, stored.signature, stored.createdAt, bandKeys(stored.signature));
        this.seenSeq = page.at(-1)?.seq ?? this.seenSeq;
        if (page.length < LOAD_PAGE) break;
      }
      this.built = true;
      return;
    }
    const recent = await this.repository.idsAfter(Math.max(0, this.seenSeq - OVERLAP));
    const unknown = recent.filter((row) => !this.known.has(row.cluster)).map((row) => row.cluster);
    const found = unknown.length === 0 ? [] : await this.repository.find(unknown);
    for (const stored of found.sort((left, right) => left.seq - right.seq))
      this.remember(stored.cluster, stored.signature, stored.createdAt, bandKeys(stored.signature));
    for (const row of recent) this.seenSeq = Math.max(this.seenSeq, row.seq);
  }

  /** The stored clusters sharing at least one of these band keys, oldest first, each with the keys it shares. */
  candidatesByBand(keys: readonly string[]): SharedCandidate[] {
    const shared = new Map<number, string[]>();
    for (const key of keys)
      this.bands.lookup(key, (member) => {
        const list = shared.get(member);
        if (list) list.push(key);
        else shared.set(member, [key]);
      });
    return [...shared]
      .sort(([left], [right]) => this.compareMembers(left, right))
      .map(([member, bands]) => ({
        cluster: this.clusters[member]!,
        signature: this.signatures.subarray(member * SIGNATURE_LENGTH, (member + 1) * SIGNATURE_LENGTH),
        bands,
      }));
  }

  /** Stores founded clusters, in page order, then takes them in (without waiting for the next look). */
  async saveFounded(
    founded: readonly { cluster: string; signature: Uint32Array; bands: readonly string[] }[],
    createdAt: string,
  ): Promise<void> {
    await this.repository.saveFounded(founded.map(({ cluster, signature }) => ({ cluster, signature, createdAt })));
    for (const { cluster, signature, bands } of founded) this.remember(cluster, signature, createdAt, bands);
  }

  /** The order candidates are met in: oldest first, then by id (the collation the band rows' reads sorted by). */
  private readonly compareMembers = (left: number, right: number): number =>
    COLLATOR.compare(this.createdAt[left]!, this.createdAt[right]!) || COLLATOR.compare(this.clusters[left]!, this.clusters[right]!);

  private remember(cluster: string, signature: Uint32Array, createdAt: string, keys: readonly string[]): void {
    if (this.known.has(cluster)) return;
    const member = this.bands.add(keys);
    if ((member + 1) * SIGNATURE_LENGTH > this.signatures.length) {
      const grown = new Uint32Array(this.signatures.length * 2);
      grown.set(this.signatures);
      this.signatures = grown;
    }
    this.signatures.set(signature, member * SIGNATURE_LENGTH);
    this.clusters.push(cluster);
    this.createdAt.push(createdAt);
    this.known.set(cluster, member);
    if (member > 0 && this.inOrder && this.compareMembers(member - 1, member) > 0) this.inOrder = false;
  }
}
