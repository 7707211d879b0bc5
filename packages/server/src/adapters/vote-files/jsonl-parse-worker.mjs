// Entry of the vote-parsing worker threads. Node 20 does not hand the main thread's TypeScript
// loader (tsx) to worker threads, so the worker registers it before loading its TypeScript code.
import { register } from 'tsx/esm/api';

register();
await import('./jsonl-parse-worker.ts');
