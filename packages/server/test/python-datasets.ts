import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Hugging Face `datasets` in Python, to load what we publish as a researcher would: a virtualenv in
 * node_modules/.cache, made once with pip from the machine's package index (no network beyond it).
 * When it cannot be made, the reason is returned so that the test says why it did not load.
 */

const root = fileURLToPath(new URL('../../..', import.meta.url));
const venv = join(root, 'node_modules', '.cache', 'agora-python-datasets');
const python = join(venv, 'bin', 'python');

let made: { python: string } | { unavailable: string } | undefined;

export function pythonWithDatasets(): { python: string } | { unavailable: string } {
  if (made) return made;
  const ready = () => spawnSync(python, ['-c', 'import datasets'], { encoding: 'utf8' }).status === 0;
  if (existsSync(python) && ready()) return (made = { python });
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  const steps: [string, string[]][] = [
    ['python3', ['-m', 'venv', '--clear', venv]],
    [join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', '--retries', '0', '--timeout', '5', 'datasets']],
  ];
  for (const [command, args] of steps) {
    const result = spawnSync(command, args, { encoding: 'utf8', timeout: 300_000 });
    if (result.status !== 0)
      return (made = { unavailable: `${command} ${args.join(' ')}: ${(result.stderr || String(result.error)).trim().slice(-400)}` });
  }
  return (made = ready() ? { python } : { unavailable: 'datasets does not import after its install' });
}

/**
 * Loads each config of a dataset folder with `load_dataset(folder, config, split="train")` (the
 * default config with no name) and returns its number of rows and its column names, by config.
 */
export function loadWithDatasets(
  python: string,
  folder: string,
  configs: readonly string[],
): Record<string, { rows: number; columns: string[] }> {
  const cache = mkdtempSync(join(tmpdir(), 'agora-hf-cache-'));
  try {
    const script = [
      'import json, sys',
      'from datasets import load_dataset',
      'folder, names = sys.argv[1], json.loads(sys.argv[2])',
      'out = {}',
      'for name in names:',
      '    ds = load_dataset(folder, None if name == "default" else name, split="train")',
      '    out[name] = {"rows": ds.num_rows, "columns": ds.column_names}',
      'print(json.dumps(out))',
    ].join('\n');
    const result = spawnSync(python, ['-c', script, folder, JSON.stringify(configs)], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, HF_HOME: cache, HF_DATASETS_OFFLINE: '1', HF_HUB_OFFLINE: '1', HF_HUB_DISABLE_TELEMETRY: '1' },
    });
    if (result.status !== 0) throw new Error(`load_dataset failed: ${result.stderr.trim().slice(-2000)}`);
    return JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, { rows: number; columns: string[] }>;
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
