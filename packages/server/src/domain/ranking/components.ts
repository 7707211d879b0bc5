import type { PairCounts } from './aggregate-cells';

/** The comparison graph's structure, which decides whether a finite MLE exists (docs/ranking.md#degenerate-data). */
export interface GraphAnalysis {
  /** Weakly connected components (model indices ascending, components by smallest member). */
  readonly components: number[][];
  /** Index into {@link components} of each model. */
  readonly componentOf: Int32Array;
  /** Strongly connected components of the win digraph, same ordering. */
  readonly strongComponents: number[][];
  /** A finite MLE exists iff every weak component is strongly connected. */
  readonly mleExists: boolean;
  /**
   * 1 for a provisional model: outside the largest strongly connected component of its weak
   * component. When several strong components tie for largest, none is the core and the whole
   * weak component is provisional.
   */
  readonly provisional: Uint8Array;
}

/**
 * Finds the weak components, the strong components of the win digraph (i → j when i has win
 * mass against j: a win or a tie), the existence of the MLE and the provisional models.
 * Models with no votes in `pairs` form components of their own.
 */
export function analyzeGraph(pairs: PairCounts): GraphAnalysis {
  const m = pairs.modelCount;
  const { outStart, outEdges } = winDigraph(pairs);
  const weakLabels = weakComponentLabels(pairs);
  const components = groupByLabel(weakLabels);
  const strongOf = strongComponentLabels(m, outStart, outEdges);
  const strongComponents = groupByLabel(strongOf);
  const strongLabelsOrdered = new Int32Array(m);
  strongComponents.forEach((members, index) => {
    for (const model of members) strongLabelsOrdered[model] = index;
  });
  const provisional = new Uint8Array(m);
  let mleExists = true;
  components.forEach((members) => {
    const sizes = new Map<number, number>();
    for (const model of members) {
      const label = strongLabelsOrdered[model]!;
      sizes.set(label, (sizes.get(label) ?? 0) + 1);
    }
    if (sizes.size === 1) return;
    mleExists = false;
    const largest = Math.max(...sizes.values());
    const winners = [...sizes].filter(([, size]) => size === largest);
    const core = winners.length === 1 ? winners[0]![0] : -1;
    for (const model of members) if (strongLabelsOrdered[model] !== core) provisional[model] = 1;
  });
  const componentIndex = new Int32Array(m);
  components.forEach((members, index) => {
    for (const model of members) componentIndex[model] = index;
  });
  return { components, componentOf: componentIndex, strongComponents, mleExists, provisional };
}

function winDigraph(pairs: PairCounts): { outStart: Int32Array; outEdges: Int32Array } {
  const m = pairs.modelCount;
  const degree = new Int32Array(m + 1);
  const forEachEdge = (visit: (from: number, to: number) => void): void => {
    for (let p = 0; p < pairs.length; p++) {
      const ties = pairs.ties[p]!;
      if (pairs.winsI[p]! + ties > 0) visit(pairs.i[p]!, pairs.j[p]!);
      if (pairs.winsJ[p]! + ties > 0) visit(pairs.j[p]!, pairs.i[p]!);
    }
  };
  forEachEdge((from) => {
    degree[from + 1]! += 1;
  });
  for (let v = 0; v < m; v++) degree[v + 1]! += degree[v]!;
  const fill = degree.slice(0, m);
  const outEdges = new Int32Array(degree[m]!);
  forEachEdge((from, to) => {
    outEdges[fill[from]!++] = to;
  });
  return { outStart: degree, outEdges };
}

function weakComponentLabels(pairs: PairCounts): Int32Array {
  const m = pairs.modelCount;
  const parent = new Int32Array(m);
  for (let v = 0; v < m; v++) parent[v] = v;
  const find = (v: number): number => {
    let root = v;
    while (parent[root] !== root) root = parent[root]!;
    while (parent[v] !== root) {
      const next = parent[v]!;
      parent[v] = root;
      v = next;
    }
    return root;
  };
  for (let p = 0; p < pairs.length; p++) {
    if (pairs.winsI[p]! + pairs.ties[p]! + pairs.winsJ[p]! <= 0) continue;
    const x = find(pairs.i[p]!);
    const y = find(pairs.j[p]!);
    if (x !== y) parent[Math.max(x, y)] = Math.min(x, y);
  }
  const labels = new Int32Array(m);
  for (let v = 0; v < m; v++) labels[v] = find(v);
  return labels;
}

/** Tarjan's algorithm, iterative (no recursion depth limit). */
function strongComponentLabels(m: number, outStart: Int32Array, outEdges: Int32Array): Int32Array {
  const index = new Int32Array(m).fill(-1);
  const low = new Int32Array(m);
  const onStack = new Uint8Array(m);
  const stack = new Int32Array(m);
  const callStack = new Int32Array(m);
  const edgeCursor = new Int32Array(m);
  const labels = new Int32Array(m);
  let stackSize = 0;
  let counter = 0;
  for (let root = 0; root < m; root++) {
    if (index[root] !== -1) continue;
    let depth = 0;
    callStack[0] = root;
    index[root] = low[root] = counter++;
    edgeCursor[root] = outStart[root]!;
    stack[stackSize++] = root;
    onStack[root] = 1;
    while (depth >= 0) {
      const v = callStack[depth]!;
      if (edgeCursor[v]! < outStart[v + 1]!) {
        const w = outEdges[edgeCursor[v]!++]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          edgeCursor[w] = outStart[w]!;
          stack[stackSize++] = w;
          onStack[w] = 1;
          callStack[++depth] = w;
        } else if (onStack[w]) {
          low[v] = Math.min(low[v]!, index[w]!);
        }
        continue;
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack[--stackSize]!;
          onStack[w] = 0;
          labels[w] = v;
        } while (w !== v);
      }
      depth -= 1;
      if (depth >= 0) {
        const parent = callStack[depth]!;
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
    }
  }
  return labels;
}

function groupByLabel(labels: Int32Array): number[][] {
  const groups = new Map<number, number[]>();
  for (let v = 0; v < labels.length; v++) {
    const label = labels[v]!;
    let group = groups.get(label);
    if (!group) groups.set(label, (group = []));
    group.push(v);
  }
  return [...groups.values()].sort((x, y) => x[0]! - y[0]!);
}

/**
 * Fast check used by the bootstrap: true when every model has votes and the whole win digraph is
 * one strongly connected component (then the MLE exists and the gauge is a single mean).
 */
export function isStronglyConnected(pairs: PairCounts): boolean {
  const m = pairs.modelCount;
  if (m === 0) return true;
  const { outStart, outEdges } = winDigraph(pairs);
  const reversed = reverseDigraph(m, outStart, outEdges);
  return reachesAll(m, outStart, outEdges) && reachesAll(m, reversed.outStart, reversed.outEdges);
}

function reverseDigraph(m: number, outStart: Int32Array, outEdges: Int32Array): { outStart: Int32Array; outEdges: Int32Array } {
  const start = new Int32Array(m + 1);
  for (const target of outEdges) start[target + 1]! += 1;
  for (let v = 0; v < m; v++) start[v + 1]! += start[v]!;
  const fill = start.slice(0, m);
  const edges = new Int32Array(outEdges.length);
  for (let v = 0; v < m; v++) {
    for (let e = outStart[v]!; e < outStart[v + 1]!; e++) edges[fill[outEdges[e]!]!++] = v;
  }
  return { outStart: start, outEdges: edges };
}

function reachesAll(m: number, outStart: Int32Array, outEdges: Int32Array): boolean {
  const seen = new Uint8Array(m);
  const queue = new Int32Array(m);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    const v = queue[head++]!;
    for (let e = outStart[v]!; e < outStart[v + 1]!; e++) {
      const w = outEdges[e]!;
      if (!seen[w]) {
        seen[w] = 1;
        queue[tail++] = w;
      }
    }
  }
  return tail === m;
}
