import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const agora = fileURLToPath(new URL('../../../bin/agora', import.meta.url));

/** Runs `./bin/agora` with arguments and standard input, as a user would, and collects what it printed. */
export function runAgora(
  args: string[],
  input: string,
  environment: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(agora, args, { encoding: 'utf8', env: { ...process.env, ...environment } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}

/**
 * Runs `./bin/agora` as the leader of a process group of its own, waits for it to exit, then lists
 * the processes still in that group (pid and command) once they had `graceMs` to end: what a command
 * left running behind it. The grace is for the TypeScript loader's transform service (esbuild), which
 * ends by itself when its pipe closes with the command, a few milliseconds later.
 */
export function runAgoraInItsGroup(
  args: string[],
  environment: Record<string, string> = {},
  graceMs = 2000,
): Promise<{ code: number | null; stderr: string; leftBehind: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(agora, args, { detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...environment } });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (code) => {
      const until = Date.now() + graceMs;
      const look = () =>
        // ps exits 1 when the group is empty; its output is what counts.
        execFile('ps', ['-o', 'pid=,args=', '-g', String(child.pid)], { encoding: 'utf8' }, (_error, stdout) => {
          const leftBehind = stdout.split('\n').filter((line) => line.trim() !== '');
          if (leftBehind.length > 0 && Date.now() < until) setTimeout(look, 50);
          else resolve({ code, stderr, leftBehind });
        });
      look();
    });
  });
}
