import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';

const GGUF_MAGIC = Buffer.from('GGUF', 'ascii');

/**
 * Why a local model's file cannot be served, in words that name the fix, or null when it can be
 * tried: it exists, it is a GGUF file, and it fits in this machine's memory (llama.cpp maps the
 * whole file, plus its context).
 */
export function localModelFileProblem(path: string, memoryBytes: number = totalmem()): string | null {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) return `${path} is not a file`;
    size = stat.size;
  } catch {
    return `no model file at ${path}: run \`agora models pull\`, or fix model_path in the catalogue`;
  }
  const head = Buffer.alloc(4);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, head, 0, 4, 0);
  } finally {
    closeSync(fd);
  }
  if (!head.equals(GGUF_MAGIC)) return `${path} is not a GGUF file (llama.cpp reads only GGUF)`;
  if (size > memoryBytes * 0.9) {
    const gigabytes = (bytes: number) => (bytes / 1024 ** 3).toFixed(1);
    return `${path} needs about ${gigabytes(size)} GB of memory and this machine has ${gigabytes(memoryBytes)} GB: choose a smaller quantisation`;
  }
  return null;
}
