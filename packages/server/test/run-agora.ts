import { execFile } from 'node:child_process';
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
