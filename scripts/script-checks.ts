/** What the attack scripts (`npm run load`, `npm run fuzz`) share: their check report and their exit. */

/** An error with its stack, for a report. */
export function describeError(error: unknown): string {
  return error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
}

/** Appends the checks to the report, prints it, and gives the exit code: 1 when any check failed. */
export function printChecks(script: string, lines: string[], checks: readonly (readonly [string, boolean])[]): number {
  for (const [name, ok] of checks) lines.push(`  ${ok ? 'ok  ' : 'FAIL'} ${name}`);
  const failed = checks.filter(([, ok]) => !ok).length;
  lines.push(failed === 0 ? `${script}: all checks passed` : `${script}: ${failed} check(s) FAILED`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return failed === 0 ? 0 : 1;
}

/** Runs a script's main and exits with its code; an error it throws is printed and exits 1. */
export function runScript(script: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${script}: ${describeError(error)}\n`);
      process.exit(1);
    },
  );
}
