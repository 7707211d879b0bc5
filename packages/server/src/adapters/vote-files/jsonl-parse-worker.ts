/**
 * Worker thread of `readJsonlInParallel`: parses one byte range of a JSON Lines vote file and
 * posts back its vote table (typed arrays transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { parseJsonlRange, type JsonlRangeTask } from './jsonl-range';
import { loadCl100kTokenCounter } from './token-counter';

const task = workerData as JsonlRangeTask;
const result = await parseJsonlRange(task, task.styleFromText ? await loadCl100kTokenCounter() : undefined);
const buffers: ArrayBuffer[] = [];
if (result.table) {
  buffers.push(result.table.modelA.buffer as ArrayBuffer, result.table.modelB.buffer as ArrayBuffer);
  buffers.push(result.table.outcome.buffer as ArrayBuffer);
  if (result.table.style) buffers.push(result.table.style.buffer as ArrayBuffer);
}
parentPort!.postMessage(result, buffers);
