// `npm run build:cli`: the `agora` command line prebuilt as plain JavaScript, so that bin/agora
// starts it with bare node instead of through the TypeScript loader (tsx costs about 0.45 s of CPU
// per start, and once more per worker thread). Optional: without it (a fresh clone) bin/agora runs
// the sources through tsx; with it, bin/agora runs it only while it is newer than every source.
//
// What is bundled: our own sources, the workspace packages (@agora/*, TypeScript sources), and
// the plain-JavaScript packages every command loads at start (zod alone is 95 files, the Parquet
// readers and writer 97: loading them file by file cost about 0.2 s of a 0.5 s start). What is
// not: every other package (native modules such as better-sqlite3 and cld, packages that start
// threads or read files of their own, such as pino and node-llama-cpp), resolved from
// node_modules at run time as before.
// The worker threads' entries are bundled beside the command line under the names the sources
// give them (`new URL('./x-worker.mjs', import.meta.url)` then finds them next to the chunk).
// Other uses of import.meta.url name files next to the sources (prompts, site pages, the web
// build, require of native modules): they are rewritten to the source file's own URL, relative
// to the bundle, so they still find those files.
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const server = `${root}packages/server/src/`;
export const OUT_DIR = process.argv[2] ?? `${root}packages/server/dist/cli`;

/** Worker-thread entries: the tsx-registering .mjs in the sources, the .ts bundled in its place. */
const WORKERS = [
  'adapters/vote-files/jsonl-parse-worker',
  'adapters/dataset-files/dataset-builder-worker',
  'adapters/ranking-worker/ranking-worker',
  'adapters/rules-layer/rules-layer-worker',
];
/** Packages bundled (pure JavaScript, no files or threads of their own); the rest stay external. */
const BUNDLED = /^(@agora\/|zod(\/|$)|hyparquet|hysnappy|fzstd|commander|yaml|ibantools|kysely|p-limit)/;
const WORKER_URL = /new URL\(\s*'\.\/[a-z-]+-worker\.mjs',\s*$/;
/**
 * Modules bundled on their own, without code splitting, and loaded by the chunks as `./<name>.mjs`.
 * Splitting shares code by whole files: zod/mini's pieces live in the files of zod's core that the
 * other commands' zod schemas use whole (with the locales), so a command using zod/mini would load
 * all of them (670 kB). Alone, such a module keeps only the pieces it uses. It must not export a
 * class checked with instanceof elsewhere: its copy is not the one the other chunks hold.
 */
const STANDALONE = ['cli/commands/compute-leaderboard-flags'];

const sourceUrls = {
  name: 'source-urls',
  setup(builder) {
    builder.onResolve({ filter: /^\./ }, (args) => {
      const standalone = STANDALONE.find((name) => resolve(args.resolveDir, args.path) === `${server}${name}`);
      return standalone && args.kind === 'import-statement' && builder.initialOptions.splitting
        ? { path: `./${standalone.split('/').pop()}.mjs`, external: true }
        : undefined;
    });
    builder.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED.test(args.path) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true },
    );
    builder.onLoad({ filter: /\.(ts|mts|mjs|js)$/ }, async (args) => {
      if (args.path.includes('/node_modules/') && !/\/node_modules\/@agora\//.test(args.path)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return { contents: text, loader: args.path.endsWith('ts') ? 'ts' : 'js' };
      const fromBundle = relative(OUT_DIR, args.path);
      const rewritten = text.replace(/import\.meta\.url/g, (match, offset) =>
        WORKER_URL.test(text.slice(Math.max(0, offset - 80), offset))
          ? match
          : `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`,
      );
      return { contents: rewritten, loader: args.path.endsWith('ts') ? 'ts' : 'js', resolveDir: dirname(args.path) };
    });
  },
};

await rm(OUT_DIR, { recursive: true, force: true });
const common = {
  outdir: OUT_DIR,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // the bundled CommonJS packages (commander) require node's own modules
  banner: { js: "import { createRequire as __agoraRequire } from 'node:module'; const require = __agoraRequire(import.meta.url);" },
  plugins: [sourceUrls],
};
await build({
  ...common,
  entryPoints: [
    { in: `${server}cli/main.ts`, out: 'agora' },
    ...WORKERS.map((worker) => ({ in: `${server}${worker}.ts`, out: worker.split('/').pop() })),
  ],
  splitting: true,
});
await build({ ...common, entryPoints: STANDALONE.map((name) => ({ in: `${server}${name}.ts`, out: name.split('/').pop() })) });
