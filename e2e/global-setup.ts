import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
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

export default function setup(): void {
  const index = join(web, 'build', 'index.html');
  const sources = Math.max(
    newest(join(web, 'src')),
    newest(contract),
    newest(join(web, 'svelte.config.js')),
    newest(join(web, 'vite.config.ts')),
    newest(join(web, 'package.json')),
  );
  if (existsSync(index) && statSync(index).mtimeMs > sources) return;
  const started = Date.now();
  execFileSync('npm', ['run', 'build', '-w', '@agora/web'], { cwd: join(web, '..', '..'), stdio: ['ignore', 'ignore', 'inherit'] });
  console.log(`[e2e] built packages/web in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
