// Worker-thread entry: Node 20 applies `--import` loaders to a worker only after its entry module
// is resolved, so the entry is plain JavaScript that registers the TypeScript loader, then loads
// the real worker.
import { register } from 'tsx/esm/api';

register();
await import('./rules-layer-worker.ts');
