/**
 * Runs in a worker thread: ranks leaderboard views off the event loop that serves requests and
 * streams, since a fit on millions of votes takes seconds.
 */
import { parentPort } from 'node:worker_threads';
import { computeViews, type ViewDefinition, type ViewVote } from '../../domain/ranking/leaderboard-views';

parentPort!.on('message', (message: { id: number; votes: ViewVote[]; views: ViewDefinition[] }) => {
  try {
    const results = computeViews(message.votes, message.views);
    parentPort!.postMessage({ id: message.id, results: [...results] });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
