/**
 * `npm run bench [-- part …]`: runs the benchmark parts (all by default) one after the other and
 * prints their figures. Each part measures its own baseline in the same run, so ratios compare
 * like with like on whatever machine runs it.
 */
const parts: Record<string, () => Promise<{ run: () => Promise<void> }>> = {
  arena: () => import('./arena.bench'),
  ranking: () => import('./ranking.bench'),
  quality: () => import('./data-quality'),
  export: () => import('./export.bench'),
  maxx: () => import('./maxx.bench'),
  local: () => import('./local.bench'),
  postprocess: () => import('./postprocess.bench'),
  scale: () => import('./scale.bench'),
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const selected = wanted.length > 0 ? wanted : Object.keys(parts);
for (const name of selected) {
  const load = parts[name];
  if (!load) {
    process.stderr.write(`bench: unknown part "${name}" (known: ${Object.keys(parts).join(', ')})\n`);
    process.exit(2);
  }
  process.stdout.write(`\n## ${name}\n`);
  const part = await load();
  await part.run();
}
export {};
