import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { totalmem } from 'node:os';

const GGUF_MAGIC = Buffer.from('GGUF', 'ascii');
/** Far above any real model's tensors or metadata keys (a few thousand at most). */
const MAX_GGUF_COUNT = 1_000_000n;

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
  const head = Buffer.alloc(24);
  try {
    const fd = openSync(path, 'r');
    try {
      readSync(fd, head, 0, 24, 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return `${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  if (!head.subarray(0, 4).equals(GGUF_MAGIC)) return `${path} is not a GGUF file (llama.cpp reads only GGUF)`;
  // A header that announces absurd counts would make any reader allocate and loop for them.
  const version = head.readUInt32LE(4);
  const tensors = head.readBigUInt64LE(8);
  const keys = head.readBigUInt64LE(16);
  if (version < 2 || version > 3 || tensors > MAX_GGUF_COUNT || keys > MAX_GGUF_COUNT || BigInt(size) < 24n + tensors * 24n)
    return `${path} is not a valid GGUF file (version ${version}, ${tensors} tensors, ${keys} metadata keys in ${size} bytes)`;
  if (size > memoryBytes * 0.9) {
    const gigabytes = (bytes: number) => (bytes / 1024 ** 3).toFixed(1);
    return `${path} needs about ${gigabytes(size)} GB of memory and this machine has ${gigabytes(memoryBytes)} GB: choose a smaller quantisation`;
  }
  return null;
}
