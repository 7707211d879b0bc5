import type { StreamEvent } from '@agora/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../database';
import type { StoredFrame } from './duel-records';

/**
 * The frames of turns still streaming, for the other instances to follow (several instances only):
 * appended while the turn runs, dropped once the finished turn is stored with all of them.
 */
export class LiveFrameRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Appends frames of a turn still streaming, for the other instances to follow (several instances only). */
  async appendLiveFrames(duelId: string, turn: number, frames: readonly StoredFrame[]): Promise<void> {
    if (frames.length === 0) return;
    await this.db
      .insertInto('live_frames')
      .values(frames.map((frame) => ({ duel_id: duelId, turn, frame_id: frame.id, event_json: JSON.stringify(frame.event) })))
      .onConflict((conflict) => conflict.columns(['duel_id', 'turn', 'frame_id']).doNothing())
      .execute();
  }

  /** The frames of a turn still streaming after `afterId`, in order. */
  async liveFramesAfter(duelId: string, turn: number, afterId: number): Promise<StoredFrame[]> {
    const rows = await this.db
      .selectFrom('live_frames')
      .select(['frame_id', 'event_json'])
      .where('duel_id', '=', duelId)
      .where('turn', '=', turn)
      .where('frame_id', '>', afterId)
      .orderBy('frame_id')
      .execute();
    return rows.map((row) => ({ id: row.frame_id, event: JSON.parse(row.event_json) as StreamEvent }));
  }

  /** Forgets a turn's live frames once it is stored with all of them. */
  async dropLiveFrames(duelId: string, turn: number): Promise<void> {
    await this.db.deleteFrom('live_frames').where('duel_id', '=', duelId).where('turn', '=', turn).execute();
  }
}
