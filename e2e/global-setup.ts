import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * vitest globalSetup: builds the web app once before the suite when its build is missing or older
 * than its sources (the e2e tests and the server's `/` need `packages/web/build`).
 */
const web = fileURLToPath(new URL('../packages/web/', import.meta.url));
const contract = fileURLToPath(new URL('../packages/contract/src/', import.meta.url));

function newest(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** True when the build is newer than every source it is made from. */
function buildIsFresh(): boolean {
  const index = join(web, 'build', 'index.html');
  const sources = Math.max(
    newest(join(web, 'src')),
    newest(contract),
    newest(join(web, 'svelte.config.js')),
    newest(join(web, 'vite.config.ts')),
    newest(join(web, 'package.json')),
  );
  return existsSync(index) && statSync(index).mtimeMs > sources;
}

/** A directory made atomically: one vitest run builds at a time (two builds into one folder break each other). */
const lock = join(web, '.build-lock');
const STALE_LOCK_MS = 5 * 60_000;

export default function setup(): void {
  if (buildIsFresh()) return;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another run builds: wait for it, unless its lock outlived any build (a killed run).
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    if (buildIsFresh()) return;
    const started = Date.now();
    execFileSync('npm', ['run', 'build', '-w', '@agora/web'], { cwd: join(web, '..', '..'), stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(`[e2e] built packages/web in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
