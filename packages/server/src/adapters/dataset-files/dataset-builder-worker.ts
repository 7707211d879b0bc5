import { parentPort, workerData } from 'node:worker_threads';
import type { ExportableConversation } from '../../domain/datasets/exportable';
import { DatasetBuilder, type DatasetBuilderSettings } from './dataset-builder';

/** Messages from the export to its builder threads. */
export type BuilderRequest = { type: 'batch'; batch: ExportableConversation[] } | { type: 'finish' };
export type BuilderReply =
  { type: 'done' } | { type: 'finished'; files: ReturnType<DatasetBuilder['finish']> } | { type: 'error'; message: string };

// One builder per thread for the datasets it was given; batches arrive in order, one at a time.
const builder = new DatasetBuilder(workerData as DatasetBuilderSettings);
parentPort!.on('message', (request: BuilderRequest) => {
  try {
    if (request.type === 'batch') {
      builder.add(request.batch);
      parentPort!.postMessage({ type: 'done' } satisfies BuilderReply);
    } else {
      parentPort!.postMessage({ type: 'finished', files: builder.finish() } satisfies BuilderReply);
    }
  } catch (error) {
    parentPort!.postMessage({
      type: 'error',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies BuilderReply);
  }
});
