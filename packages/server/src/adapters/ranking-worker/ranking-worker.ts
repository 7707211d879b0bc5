/**
 * Runs in a worker thread: ranks leaderboard views off the event loop that serves requests and
 * streams, since a fit on millions of votes takes seconds.
 */
import { parentPort } from 'node:worker_threads';
import { computeViewsFromColumns, type ViewDefinition } from '../../domain/ranking/leaderboard-views';
import type { VoteColumns } from '../../domain/ranking/vote-columns';

parentPort!.on('message', (message: { id: number; columns: VoteColumns; counted: Uint8Array; views: ViewDefinition[] }) => {
  try {
    const results = computeViewsFromColumns(message.columns, message.counted, message.views);
    parentPort!.postMessage({ id: message.id, results: [...results] });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
