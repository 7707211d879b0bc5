/**
 * Splits a streamed answer into finished markdown blocks and an unfinished tail. A block is
 * finished at a blank line that is not inside a code fence; it is rendered once and never again,
 * while the tail is shown as plain text until its block finishes. So each delta costs a text-node
 * update, and markdown is parsed once per paragraph instead of once per delta.
 */
export class BlockSplitter {
  private pending = '';

  /** Adds a delta; returns the blocks it finished (often none). */
  push(delta: string): string[] {
    this.pending += delta;
    const cut = lastBoundary(this.pending);
    if (cut < 0) return [];
    const finished = this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut).replace(/^\n+/, '');
    return finished.trim() === '' ? [] : [finished];
  }

  /** The unfinished text since the last finished block. */
  get tail(): string {
    return this.pending;
  }

  /** Ends the stream: the tail becomes the last block. */
  flush(): string[] {
    const rest = this.pending;
    this.pending = '';
    return rest.trim() === '' ? [] : [rest];
  }
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** Index just after the last blank line outside a code fence, or -1. */
export function lastBoundary(text: string): number {
  let inFence = false;
  let best = -1;
  let offset = 0;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const isLast = index === lines.length - 1;
    if (FENCE.test(line)) inFence = !inFence;
    offset += line.length + (isLast ? 0 : 1);
    if (!inFence && !isLast && line.trim() === '' && index > 0) best = offset;
  }
  return best;
}
