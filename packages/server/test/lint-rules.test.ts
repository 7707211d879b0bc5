import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The house rules hold: for each layer rule of eslint.config.js, a forbidden example is written where
 * the rule applies and ESLint must reject it with that rule (and accept an allowed neighbour). A rule
 * removed or weakened in the configuration fails here.
 */
const repository = join(import.meta.dirname, '../../..');
const probes = join(repository, 'packages/server/src/domain/lint-probe');
const servicesProbes = join(repository, 'packages/server/src/services/lint-probe');
const webProbes = join(repository, 'packages/web/src/lib/lint-probe');
const configProbes = join(repository, 'packages/server/src/config/lint-probe');
const privacyProbes = join(repository, 'packages/privacy/src/lint-probe');
const httpProbes = join(repository, 'packages/server/src/http/lint-probe');
const providersProbes = join(repository, 'packages/server/src/providers/lint-probe');
const dbProbes = join(repository, 'packages/server/src/db/lint-probe');
const jobsProbes = join(repository, 'packages/server/src/jobs/lint-probe');
const adaptersProbes = join(repository, 'packages/server/src/adapters/lint-probe');
const cliProbes = join(repository, 'packages/server/src/cli/lint-probe');
const FOLDERS = [
  probes,
  servicesProbes,
  webProbes,
  configProbes,
  privacyProbes,
  httpProbes,
  providersProbes,
  dbProbes,
  jobsProbes,
  adaptersProbes,
  cliProbes,
];

/** A function of `lines` statements, and a file of `lines` lines: the room-size probes. */
const longFunction = (lines: number) =>
  `export function long(): number {\n  let total = 0;\n${'  total += 1;\n'.repeat(lines)}  return total;\n}\n`;
const longFile = (lines: number) => Array.from({ length: lines }, (_, index) => `export const value${index} = ${index};`).join('\n') + '\n';

interface Probe {
  name: string;
  folder: string;
  code: string;
  /** The rule that must reject it, or null for an allowed example. */
  rule: string | null;
}

const PROBES: Probe[] = [
  {
    name: 'a store type in the domain',
    folder: probes,
    code: "import type { Database } from '../../db/database';\nexport type X = Database;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a config type in the domain',
    folder: probes,
    code: "import type { Config } from '../../config/config';\nexport type X = Config;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'hashing in the domain',
    folder: probes,
    code: "import { createHash } from 'node:crypto';\nexport const h = createHash;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a file read in the domain',
    folder: probes,
    code: "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n",
    rule: 'no-restricted-imports',
  },
  { name: 'the clock in the domain', folder: probes, code: 'export const now = () => Date.now();\n', rule: 'no-restricted-syntax' },
  { name: 'new Date() in the domain', folder: probes, code: 'export const now = () => new Date();\n', rule: 'no-restricted-syntax' },
  { name: 'randomness in the domain', folder: probes, code: 'export const draw = () => Math.random();\n', rule: 'no-restricted-syntax' },
  {
    name: 'the environment in the domain',
    folder: probes,
    code: "export const port = () => process.env['PORT'];\n",
    rule: 'no-restricted-globals',
  },
  {
    name: 'a date parsed in the domain (allowed)',
    folder: probes,
    code: 'export const day = (iso: string) => new Date(iso).toISOString().slice(0, 10);\n',
    rule: null,
  },
  {
    name: 'the contract in the domain (allowed)',
    folder: probes,
    code: "import type { DuelMode } from '@agora/contract';\nexport type X = DuelMode;\n",
    rule: null,
  },
  {
    name: 'HTTP in a service',
    folder: servicesProbes,
    code: "import { Hono } from 'hono';\nexport const app = new Hono();\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'SQL in a service',
    folder: servicesProbes,
    code: "import { sql } from 'kysely';\nexport const query = sql`select 1`;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a file written by a service',
    folder: servicesProbes,
    code: "import { writeFileSync } from 'node:fs';\nexport const write = writeFileSync;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a service type in the configuration',
    folder: configProbes,
    code: "import type { AppError } from '../../services/app-error';\nexport type X = AppError;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the clock in the privacy rules (the browser runs them too)',
    folder: privacyProbes,
    code: 'export const now = () => Date.now();\n',
    rule: 'no-restricted-syntax',
  },
  {
    name: 'server code in the web app',
    folder: webProbes,
    code: "import { screenText } from '../../../../server/src/domain/privacy';\nexport const s = screenText;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a file format in the HTTP layer',
    folder: httpProbes,
    code: "import { DATASET_FORMATS } from '../../adapters/dataset-files/dataset-writers';\nexport const f = DATASET_FORMATS;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the configuration read by the HTTP layer',
    folder: httpProbes,
    code: "import { loadConfig } from '../../config/config';\nexport const c = loadConfig;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the store in a provider',
    folder: providersProbes,
    code: "import { createStore } from '../../db/unit-of-work';\nexport const s = createStore;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a model client in the store',
    folder: dbProbes,
    code: "import { createModelClient } from '../../providers/create-model-client';\nexport const c = createModelClient;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the store reached by a job',
    folder: jobsProbes,
    code: "import { createStore } from '../../db/unit-of-work';\nexport const s = createStore;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the composition root in a service',
    folder: servicesProbes,
    code: "import { createArenaServices } from '../../composition/arena-services';\nexport const c = createArenaServices;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the store in an adapter',
    folder: adaptersProbes,
    code: "import type { DatasetRepository } from '../../db/repositories/dataset.repository';\nexport type R = DatasetRepository;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'a service in an adapter',
    folder: adaptersProbes,
    code: "import { DatasetExportService } from '../../services/dataset-export.service';\nexport const s = DatasetExportService;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the domain in an adapter (allowed)',
    folder: adaptersProbes,
    code: "import type { ExportableConversation } from '../../domain/datasets/exportable';\nexport type C = ExportableConversation;\n",
    rule: null,
  },
  {
    name: 'the store reached by a command',
    folder: cliProbes,
    code: "import { createStore } from '../../db/unit-of-work';\nexport const s = createStore;\n",
    rule: 'no-restricted-imports',
  },
  { name: 'a function over 60 lines', folder: servicesProbes, code: longFunction(60), rule: 'max-lines-per-function' },
  { name: 'a function of 58 lines (allowed)', folder: servicesProbes, code: longFunction(56), rule: null },
  { name: 'a file over 400 lines', folder: jobsProbes, code: longFile(401), rule: 'max-lines' },
  { name: 'a file of 400 lines (allowed)', folder: jobsProbes, code: longFile(399), rule: null },
  {
    name: 'the privacy rules in the web app (allowed)',
    folder: webProbes,
    code: "import { screenText } from '@agora/privacy';\nexport const s = screenText;\n",
    rule: null,
  },
];

describe('the lint configuration', () => {
  const results = new Map<string, string[]>();
  beforeAll(async () => {
    for (const folder of FOLDERS) mkdirSync(folder, { recursive: true });
    const files = PROBES.map((probe, index) => {
      const file = join(probe.folder, `probe-${index}.ts`);
      writeFileSync(file, probe.code);
      return file;
    });
    try {
      const eslint = new ESLint({ cwd: repository });
      for (const result of await eslint.lintFiles(files))
        results.set(
          result.filePath,
          result.messages.map((message) => message.ruleId ?? message.message),
        );
    } finally {
      for (const folder of FOLDERS) rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
  afterAll(() => {
    for (const folder of FOLDERS) rmSync(folder, { recursive: true, force: true });
  });

  it.each(PROBES.map((probe, index) => [probe.name, probe, index] as const))('%s', (_name, probe, index) => {
    const messages = results.get(join(probe.folder, `probe-${index}.ts`));
    expect(messages, 'linted').toBeDefined();
    if (probe.rule === null) expect(messages).toEqual([]);
    else expect(messages).toContain(probe.rule);
  });
});
