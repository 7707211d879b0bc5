import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../test/seeded-random';
import { RankingVoteColumns, type VoteColumnsInput } from '../domain/ranking/vote-columns';
import {
  type ColumnsSnapshotHeader,
  columnsSnapshotParts,
  decodeColumnsSnapshot,
  encodeColumnsSnapshot,
  readColumnsSnapshot,
  writeColumnsSnapshot,
} from './ranking-columns-snapshot';

const folder = mkdtempSync(join(tmpdir(), 'agora-columns-snapshot-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Random votes with every column in play: style (one count past 65,535), 40 categories (past the mask's 32), clusters, unknown facts. */
function votes(seed: number, size: number): { input: VoteColumnsInput; key: string }[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const models = Array.from({ length: 12 }, (_, index) => `m-${index}`);
  const categories = Array.from({ length: 40 }, (_, index) => `topic-${index}`);
  return Array.from({ length: size }, (_, index) => {
    const modelA = pick(models);
    const modelB = pick(models.filter((model) => model !== modelA));
    const choice = pick(['a', 'b', 'tie', 'both_bad'] as const);
    const side = () => ({ len: index === 77 ? 70_000 : Math.floor(random() * 900), headers: 1, lists: Math.floor(random() * 6), bold: 2 });
    const energy = () => (random() < 0.7 ? { min: random(), max: 1 + random() } : null);
    const known = random() < 0.9;
    const input: VoteColumnsInput = {
      view: {
        vote: {
          modelA,
          modelB,
          choice,
          flags: random() < 0.05 ? ['identity_leak'] : [],
          style: random() < 0.8 ? { a: side(), b: side() } : undefined,
          energy: { a: energy(), b: energy() },
        },
        language: pick(['fr', 'en', 'lt', null]),
        mode: pick(['random', 'custom']),
        categories: random() < 0.4 ? [] : [pick(categories), pick(categories)],
        promptCluster: random() < 0.5 ? `cluster-${Math.floor(random() * 50)}` : null,
      },
      facts: known
        ? {
            duelId: `duel-${index}`,
            createdAt: new Date(Date.parse('2026-11-01T00:00:00Z') + index * 60_000).toISOString(),
            source: random() < 0.9 ? 'arena' : 'comparia',
            visitor: `v-${Math.floor(random() * 300)}`,
            client: random() < 0.2 ? null : `c-${Math.floor(random() * 40)}`,
            choice,
            modelA,
            modelB,
            votedAfterMs: random() < 0.1 ? null : Math.floor(random() * 10_000),
            shownChars: Math.floor(random() * 3000),
            votedAfterShownMs: Math.floor(random() * 20_000),
            review: random() < 0.03 ? 'exclude' : null,
          }
        : undefined,
    };
    return { input, key: `duel-${index}` };
  });
}

function filled(size: number): RankingVoteColumns {
  const columns = new RankingVoteColumns();
  const all = votes(7, size);
  for (const { input, key } of all) columns.put(input, key);
  // Updates of votes already there, and erased ones.
  for (const { input, key } of votes(8, 200)) columns.put(input, key);
  for (let index = 0; index < size; index += 97) columns.erase(`duel-${index}`);
  return columns;
}

const HEADER: ColumnsSnapshotHeader = { epoch: 3, readFrom: 1_790_000_000_123, loadedAt: 1_790_000_000_000, merged: 1 };

async function roundTrip(columns: RankingVoteColumns, name: string) {
  const path = join(folder, name);
  await writeColumnsSnapshot(path, HEADER, columns.toState());
  const read = await readColumnsSnapshot(path);
  if (!read || 'rejected' in read) throw new Error(`not read back: ${read ? read.rejected : 'missing'}`);
  return { path, header: read.header, restored: RankingVoteColumns.fromState(read.state) };
}

describe('the kept vote columns as a snapshot file', () => {
  it('reads back columns equal to those written, which go on taking votes alike', async () => {
    const columns = filled(5_000);
    const { header, restored, path } = await roundTrip(columns, 'round-trip.snapshot');
    expect(existsSync(`${path}.tmp`)).toBe(false);
    expect(header).toEqual(HEADER);
    expect(restored.view()).toEqual(columns.view());
    expect(restored.view().style).toBeInstanceOf(Uint32Array);
    expect(restored.view().categoryOverflow.size).toBeGreaterThan(100);
    expect(restored.erased).toBe(columns.erased);
    expect(restored.erased).toBeGreaterThan(0);
    expect(restored.countCastBefore(Date.parse('2026-11-02T00:00:00Z'))).toBe(columns.countCastBefore(Date.parse('2026-11-02T00:00:00Z')));
    expect(restored.meanEnergyByModel()).toEqual(columns.meanEnergyByModel());
    for (const key of ['duel-0', 'duel-4999', 'duel-5000', 'nothing']) expect(restored.has(key)).toBe(columns.has(key));
    // The dense numbers go on where they stopped: new and updated votes land on the same rows.
    for (const { input, key } of votes(9, 300)) expect(restored.put(input, `x-${key}`)).toBe(columns.put(input, `x-${key}`));
    for (const { input, key } of votes(10, 300)) expect(restored.put(input, key)).toBe(columns.put(input, key));
    expect(restored.view()).toEqual(columns.view());
    expect(restored.meanEnergyByModel()).toEqual(columns.meanEnergyByModel());
  });

  it('round-trips empty columns and unkeyed rows (reaction matches)', async () => {
    expect((await roundTrip(new RankingVoteColumns(), 'empty.snapshot')).restored.view()).toEqual(new RankingVoteColumns().view());
    const columns = filled(300);
    for (const { input } of votes(11, 20)) columns.put({ view: input.view });
    const { restored } = await roundTrip(columns, 'unkeyed.snapshot');
    expect(restored.view()).toEqual(columns.view());
    expect(restored.countCastBefore(Number.POSITIVE_INFINITY)).toBe(columns.countCastBefore(Number.POSITIVE_INFINITY));
  });

  it('rejects a torn, altered, foreign or absent file', async () => {
    const { path } = await roundTrip(filled(2_000), 'torn.snapshot');
    const good = readFileSync(path);
    expect(await readColumnsSnapshot(join(folder, 'absent.snapshot'))).toBeUndefined();
    truncateSync(path, good.length - 5);
    expect(await readColumnsSnapshot(path)).toEqual({ rejected: expect.stringContaining('torn') });
    truncateSync(path, 60);
    expect(await readColumnsSnapshot(path)).toEqual({ rejected: 'shorter than its header' });
    const flipped = Buffer.from(good);
    flipped[good.length - 1000]! ^= 0x10;
    writeFileSync(path, flipped);
    expect(await readColumnsSnapshot(path)).toEqual({ rejected: 'its checksum does not match' });
    const otherVersion = Buffer.from(good);
    otherVersion.writeUInt32LE(99, 8);
    writeFileSync(path, otherVersion);
    expect(await readColumnsSnapshot(path)).toEqual({ rejected: expect.stringContaining('format version 99') });
    writeFileSync(path, Buffer.concat([Buffer.from('SQLite format 3\0'), good.subarray(16)]));
    expect(await readColumnsSnapshot(path)).toEqual({ rejected: 'not a columns snapshot' });
    writeFileSync(path, good);
    expect(await readColumnsSnapshot(path)).toMatchObject({ header: HEADER });
  });

  it('cuts the same bytes as the file into parts (the rows of a PostgreSQL table) that decode alike', async () => {
    const columns = filled(3_000);
    const { path } = await roundTrip(columns, 'parts.snapshot');
    const file = readFileSync(path);
    const encoded = await encodeColumnsSnapshot(HEADER, columns.toState());
    for (const partBytes of [1000, 4096, file.length, 1 << 22]) {
      const parts = [...columnsSnapshotParts(encoded, partBytes)];
      expect(parts.length).toBe(Math.ceil(file.length / partBytes));
      expect(parts.slice(0, -1).every((part) => part.length === partBytes)).toBe(true);
      expect(Buffer.concat(parts).equals(file)).toBe(true);
    }
    const read = decodeColumnsSnapshot(new Uint8Array(Buffer.concat([...columnsSnapshotParts(encoded, 1000)])));
    if ('rejected' in read) throw new Error(read.rejected);
    expect(RankingVoteColumns.fromState(read.state).view()).toEqual(columns.view());
    // A view that does not start its buffer is copied, not misread.
    const offset = new Uint8Array(new ArrayBuffer(file.length + 3), 3);
    offset.set(file);
    expect(decodeColumnsSnapshot(offset)).toMatchObject({ header: HEADER });
  });
});
