/**
 * `npm run bench`: generates a corpus (default 200 MB; `--size-mb N`), then measures in one run
 * the parse-only baseline, a full ingest, an unchanged re-run and a one-line append, each in its
 * own process, and prints a table of throughput and ratios to the baseline. Ratios, not absolute
 * times, are what compare across machines. With the API on, it also measures the routes' latency
 * and the MCP server's `search` and `read_transcript` over stdio beside the API requests behind them.
 *
 * `--engine sqlite|postgres` (or both, comma separated) chooses the store: the embedded SQLite
 * file + object directory, or PostgreSQL (a fresh schema in `--database-url`, default
 * `CT_DATABASE_URL` or the local test database) + S3 (the `CT_S3_*` bucket when set, else an
 * s3rver on loopback). With both, the same tables are printed for each, then side by side.
 */
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, binPath, cleanEnv, type TestServer } from '../test/support/api-server.js';
import { measureApi, type LatencyRow } from './api-latency.js';
import { measureMcp, type McpLatencyRow } from './mcp-latency.js';
import { measureCliStart, type CliStartRow } from './cli-start.js';
import { benchEngines, type BenchEngine, type EngineName } from './engines.js';
import { generateCorpus } from './generate-corpus.js';

const run = promisify(execFile);

/**
 * Flushes dirty pages (the engine's own, then the OS's) before a timed step. Without it, each
 * step pays for the writeback of the one before (the generated corpus, the ingest just done), and
 * by how much depends on the order of the steps: seen, the same export taking 6 s or 13 s.
 */
const settle = async (engine?: BenchEngine) => {
  await engine?.settle();
  await run('sync', []);
};
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

interface Args {
  sizeMb: number;
  keep: boolean;
  corpus: string;
  api: boolean;
  requests: number;
  engines: EngineName[];
  databaseUrl: string;
}

function parseArgs(argv: string[]): Args {
  const args: Args = {
    sizeMb: 200,
    keep: false,
    corpus: path.resolve(repoRoot, '../shared/corpus/claude-code'),
    api: true,
    requests: 200,
    engines: ['sqlite'],
    databaseUrl: process.env.CT_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--size-mb') args.sizeMb = Number(argv[++i]);
    else if (a === '--keep') args.keep = true;
    else if (a === '--corpus') args.corpus = path.resolve(argv[++i]!);
    else if (a === '--no-api') args.api = false;
    else if (a === '--requests') args.requests = Number(argv[++i]);
    else if (a === '--engine') args.engines = engineList(argv[++i] ?? '');
    else if (a === '--database-url') args.databaseUrl = argv[++i] ?? '';
    else if (a === '--help') {
      console.log(
        'usage: npm run bench -- [--size-mb 200] [--corpus DIR] [--engine sqlite|postgres|sqlite,postgres]\n' +
          '                        [--database-url URL] [--no-api] [--requests 200] [--keep]',
      );
      process.exit(0);
    } else throw new Error(`unknown argument ${a}`);
  }
  if (!Number.isFinite(args.sizeMb) || args.sizeMb <= 0)
    throw new Error('--size-mb must be a positive number');
  return args;
}

function engineList(value: string): EngineName[] {
  const names = value.split(',').map((s) => s.trim());
  for (const n of names)
    if (n !== 'sqlite' && n !== 'postgres') throw new Error(`--engine: unknown engine "${n}"`);
  return [...new Set(names)] as EngineName[];
}

async function worker(env: Record<string, string>, ...args: string[]): Promise<Record<string, number>> {
  const { stdout } = await run(process.execPath, [path.join(here, 'worker.js'), ...args], {
    maxBuffer: 1 << 20,
    env: cleanEnv(env),
  });
  return JSON.parse(stdout.trim().split('\n').pop()!) as Record<string, number>;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

function printTable(head: string[], rows: string[][]): void {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(head));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of rows) console.log(line(r));
}
const fmt = (n: number, digits = 1) => n.toFixed(digits);

interface EngineResult {
  engine: EngineName;
  label: string;
  fullMBs: number;
  rerunMs: number;
  appendMs: number;
  backfillMBs?: number;
  latency?: LatencyRow[];
  mcp?: McpLatencyRow[];
  cliStart?: CliStartRow[];
  /** Export throughput ÷ tar's, import's ÷ backfill's. */
  exportRatio?: number;
  importRatio?: number;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'ct-bench-'));
  const engines = await benchEngines(args.engines, { databaseUrl: args.databaseUrl, keep: args.keep });
  try {
    console.log(`generating a ${args.sizeMb} MB corpus from ${args.corpus} …`);
    const corpus = await generateCorpus(args.corpus, path.join(tmp, 'projects'), args.sizeMb * 1024 * 1024);
    console.log(`${corpus.sessions} sessions, ${corpus.files.length} files, ${fmt(mb(corpus.bytes))} MB\n`);
    await settle();
    const baseline = await worker({}, 'baseline', corpus.root);
    const results: EngineResult[] = [];
    const reference = {};
    for (const engine of engines)
      results.push(await benchEngine(engine, corpus, baseline, tmp, args, reference));
    if (results.length > 1) printSideBySide(results);
  } finally {
    await Promise.all(engines.map((e) => e.close()));
    if (!args.keep) await rm(tmp, { recursive: true, force: true });
    else console.log(`kept ${tmp}`);
  }
}

async function benchEngine(
  engine: BenchEngine,
  corpus: { root: string; files: string[]; bytes: number },
  baseline: Record<string, number>,
  tmp: string,
  args: Args,
  reference: { tar?: TarFigure },
): Promise<EngineResult> {
  console.log(`\n## ${engine.label}\n`);
  const env = await engine.env();
  const dataDir = path.join(tmp, `data-${engine.name}`);
  await settle(engine);
  const full = await worker(env, 'ingest', dataDir, corpus.root);
  const rerun = await worker(env, 'ingest', dataDir, corpus.root);
  const target = corpus.files[Math.floor(corpus.files.length / 2)]!;
  const text = await readFile(target, 'utf8');
  const lines = text.split('\n').filter(Boolean);
  await appendFile(target, lines[lines.length - 1] + '\n');
  const append = await worker(env, 'ingest', dataDir, corpus.root);
  // Every engine ingests the very same bytes.
  await truncate(target, Buffer.byteLength(text));

  const secrets = await worker(env, 'secrets', corpus.root);
  // The same ingest with secrets left uncounted, into its own store: the count costs the difference.
  await settle(engine);
  const noScan = await worker(
    await engine.env(),
    'ingest',
    path.join(tmp, `data-${engine.name}-noscan`),
    corpus.root,
    'noscan',
  );
  const countMs = full.ms! - noScan.ms!;
  const baseMBs = mb(corpus.bytes) / (baseline.ms! / 1000);
  const fullMBs = mb(full.bytes!) / (full.ms! / 1000);
  const rows: string[][] = [
    ['read + JSON.parse (baseline)', fmt(baseline.ms!, 0), fmt(baseMBs), '1.00', fmt(baseline.maxRssMB!, 0)],
    ['full ingest', fmt(full.ms!, 0), fmt(fullMBs), fmt(fullMBs / baseMBs, 2), fmt(full.maxRssMB!, 0)],
    [
      'full ingest, secrets not counted',
      fmt(noScan.ms!, 0),
      fmt(mb(noScan.bytes!) / (noScan.ms! / 1000)),
      fmt(mb(noScan.bytes!) / (noScan.ms! / 1000) / baseMBs, 2),
      fmt(noScan.maxRssMB!, 0),
    ],
    [
      'secret count at ingest (pre-filtered)',
      fmt(countMs, 0),
      '-',
      `${fmt((countMs / noScan.ms!) * 100, 1)} % of ingest`,
      '-',
    ],
    [
      'secretlint over every byte (no pre-filter)',
      fmt(secrets.ms!, 0),
      fmt(mb(secrets.bytes!) / (secrets.ms! / 1000)),
      `${fmt((secrets.ms! / full.ms!) * 100, 1)} % of full`,
      fmt(secrets.maxRssMB!, 0),
    ],
    [
      're-run, unchanged tree',
      fmt(rerun.ms!, 0),
      '-',
      `${fmt((rerun.ms! / full.ms!) * 100, 2)} % of full`,
      fmt(rerun.maxRssMB!, 0),
    ],
    [
      'append one line to one file',
      fmt(append.ms!, 0),
      '-',
      `${fmt((append.ms! / full.ms!) * 100, 2)} % of full`,
      fmt(append.maxRssMB!, 0),
    ],
  ];
  printTable(['measure', 'ms', 'MB/s', 'ratio', 'peak RSS MB'], rows);
  console.log(
    `\ntargets: full ingest ≥ 0.33 of baseline; secret count ≤ 10 % of ingest; unchanged re-run ≤ 2 % of full; ` +
      `peak RSS ≤ 300 MB` +
      `\ncorpus: ${fmt(mb(corpus.bytes))} MB in ${corpus.files.length} files, ${os.cpus().length} cores`,
  );
  const result: EngineResult = {
    engine: engine.name,
    label: engine.label,
    fullMBs,
    rerunMs: rerun.ms!,
    appendMs: append.ms!,
  };
  if (!args.api) return result;

  // The API instance gets a store of its own, filled through the API.
  const server = await startTestServer({
    args: ['--no-import'],
    timeoutMs: 120_000,
    env: await engine.env(),
  });
  try {
    await settle(engine);
    const t0 = performance.now();
    await run(process.execPath, [binPath, 'backfill', '--dir', corpus.root, '--webapi', server.url], {
      env: server.env,
      maxBuffer: 16 << 20,
    });
    const backfillMs = performance.now() - t0;
    const backfillMBs = mb(corpus.bytes) / (backfillMs / 1000);
    console.log(
      '\nHTTP API (real server process, keep-alive client, ' + args.requests + ' requests per route)\n',
    );
    printTable(
      ['measure', 'ms', 'MB/s', 'ratio'],
      [
        ['in-process ingest', fmt(full.ms!, 0), fmt(fullMBs), '1.00'],
        ['backfill through the API', fmt(backfillMs, 0), fmt(backfillMBs), fmt(backfillMBs / fullMBs, 2)],
      ],
    );
    // Latency is of a loaded instance at rest, not of one still writing the backfill out or
    // tending its tables after it.
    await engine.rest();
    await settle(engine);
    const latency = await measureApi(server.url, args.requests);
    console.log('');
    printTable(
      ['route', 'p50 ms', 'p99 ms', 'target p50'],
      latency.map((r) => [r.name, fmt(r.p50, 2), fmt(r.p99, 2), `≤ ${r.target} ms`]),
    );
    console.log('\ntargets: backfill through the API ≥ 0.67 of in-process ingest');
    const mcp = await measureMcp(server.url, binPath, server.env, args.requests);
    console.log(
      '\nMCP over stdio (transcripts mcp, the SDK client) next to the API request behind each call\n',
    );
    printTable(
      ['call', 'API p50 ms', 'API p99 ms', 'MCP p50 ms', 'MCP p99 ms', 'ratio p50', 'ratio p99'],
      mcp.map((r) => [
        r.name,
        fmt(r.apiP50, 2),
        fmt(r.apiP99, 2),
        fmt(r.mcpP50, 2),
        fmt(r.mcpP99, 2),
        fmt(r.mcpP50 / r.apiP50, 2),
        fmt(r.mcpP99 / r.apiP99, 2),
      ]),
    );
    console.log('\ntargets: an MCP call ≤ 2× its API request');
    const cliStart = await measureCliStart(server.url, server.env);
    console.log(
      '\nCLI start (wall time of a fresh process, median of 5, beside node -e 0 in the same run)\n',
    );
    printTable(
      ['command', 'ms', 'ratio to node -e 0', 'target'],
      cliStart.map((r) => [r.name, fmt(r.ms, 0), fmt(r.ratio, 2), r.target ? `≤ ${r.target}` : '-']),
    );
    const bundles = await measureBundles(engine, server, tmp, corpus.bytes, backfillMs, reference);
    return { ...result, backfillMBs, latency, mcp, cliStart, ...bundles };
  } finally {
    await server.stop();
  }
}

/** Bytes under a directory (files only). */
async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) total += (await stat(path.join(e.parentPath, e.name))).size;
  return total;
}

/** tar of the embedded engine's data directory: what every engine's export is compared with. */
interface TarFigure {
  bytes: number;
  ms: number;
}

/**
 * `transcripts export` of the instance just filled, next to `tar` of its data directory (into a
 * file on the same disk: tar skips reading when it writes to /dev/null); then `transcripts import`
 * of that bundle into a fresh instance, next to the backfill that filled the first one. PostgreSQL
 * + S3 keeps no data directory of its own, so its export is set against the embedded engine's tar
 * from the same run.
 */
async function measureBundles(
  engine: BenchEngine,
  server: TestServer,
  tmp: string,
  historyBytes: number,
  backfillMs: number,
  reference: { tar?: TarFigure },
): Promise<{ exportRatio?: number; importRatio: number }> {
  const bundle = path.join(tmp, `bundle-${engine.name}`);
  await settle(engine);
  const t0 = performance.now();
  await run(process.execPath, [binPath, 'export', bundle, '--webapi', server.url], {
    env: server.env,
    maxBuffer: 16 << 20,
  });
  const exportMs = performance.now() - t0;
  const bundleBytes = await treeBytes(bundle);

  if (engine.name === 'sqlite') {
    const dataDir = path.join(server.root, 'ct', 'data');
    // tar's time swings with the page cache's writeback (seen: 0.2 to 1.0 s for the same 340 MB):
    // the median of three runs, each into a new file.
    const tarRuns: number[] = [];
    for (let i = 0; i < 3; i++) {
      const tarFile = path.join(tmp, `data-${engine.name}-${i}.tar`);
      await settle(engine);
      const t1 = performance.now();
      await run('tar', ['-cf', tarFile, '-C', dataDir, '.']);
      tarRuns.push(performance.now() - t1);
      await rm(tarFile, { force: true });
    }
    reference.tar = { bytes: await treeBytes(dataDir), ms: tarRuns.sort((a, b) => a - b)[1]! };
  }
  const tar = reference.tar;

  const target = await startTestServer({
    args: ['--no-import'],
    timeoutMs: 120_000,
    env: await engine.env(),
  });
  let importMs: number;
  try {
    await settle(engine);
    const t2 = performance.now();
    await run(process.execPath, [binPath, 'import', bundle, '--webapi', target.url], {
      env: target.env,
      maxBuffer: 16 << 20,
    });
    importMs = performance.now() - t2;
  } finally {
    await target.stop();
    await rm(bundle, { recursive: true, force: true });
  }

  const tarMBs = tar ? mb(tar.bytes) / (tar.ms / 1000) : undefined;
  const exportMBs = mb(bundleBytes) / (exportMs / 1000);
  // Import and backfill bring in the same history: compare them on its size.
  const backfillMBs = mb(historyBytes) / (backfillMs / 1000);
  const importMBs = mb(historyBytes) / (importMs / 1000);
  console.log('\nbundles (export reads and import writes through the API)\n');
  printTable(
    ['measure', 'MB', 'ms', 'MB/s', 'ratio'],
    [
      tar
        ? [
            'tar of the embedded data directory (median of 3)',
            fmt(mb(tar.bytes)),
            fmt(tar.ms, 0),
            fmt(tarMBs!),
            '1.00',
          ]
        : ['tar of the embedded data directory', '-', '-', '-', '(not measured: run with --engine sqlite,…)'],
      [
        'transcripts export (bundle)',
        fmt(mb(bundleBytes)),
        fmt(exportMs, 0),
        fmt(exportMBs),
        tarMBs ? fmt(exportMBs / tarMBs, 2) : '-',
      ],
      ['backfill (history)', fmt(mb(historyBytes)), fmt(backfillMs, 0), fmt(backfillMBs), '1.00'],
      [
        'transcripts import (history)',
        fmt(mb(historyBytes)),
        fmt(importMs, 0),
        fmt(importMBs),
        fmt(importMBs / backfillMBs, 2),
      ],
    ],
  );
  console.log("\ntargets: export ≥ 0.5 of tar's throughput; import ≥ 0.5 of backfill's");
  return { exportRatio: tarMBs ? exportMBs / tarMBs : undefined, importRatio: importMBs / backfillMBs };
}

/** The engines' figures next to each other, as ratios to the first (the embedded engine). */
function printSideBySide(results: EngineResult[]): void {
  const [base, ...others] = results as [EngineResult, ...EngineResult[]];
  console.log(`\n## side by side (ratio = engine / ${base.engine})\n`);
  const head = ['measure', ...results.map((r) => r.engine), ...others.map((o) => `${o.engine} ratio`)];
  const row = (name: string, unit: (r: EngineResult) => number | undefined, digits = 1) => [
    name,
    ...results.map((r) => (unit(r) === undefined ? '-' : fmt(unit(r)!, digits))),
    ...others.map((o) => (unit(o) === undefined || !unit(base) ? '-' : fmt(unit(o)! / unit(base)!, 2))),
  ];
  const rows = [
    row('full ingest MB/s', (r) => r.fullMBs),
    row('re-run, unchanged tree ms', (r) => r.rerunMs, 0),
    row('append one line ms', (r) => r.appendMs, 0),
    row('backfill through the API MB/s', (r) => r.backfillMBs),
    row('export, ratio to tar', (r) => r.exportRatio, 2),
    row('import, ratio to backfill', (r) => r.importRatio, 2),
  ];
  for (const [i, l] of (base.latency ?? []).entries()) {
    rows.push(row(`p50 ms: ${l.name}`, (r) => r.latency?.[i]?.p50, 2));
  }
  for (const [i, m] of (base.mcp ?? []).entries()) {
    rows.push(row(`p50 ms: MCP ${m.name}`, (r) => r.mcp?.[i]?.mcpP50, 2));
  }
  for (const [i, c] of (base.cliStart ?? []).entries()) {
    if (i > 0) rows.push(row(`CLI start, ratio to node -e 0: ${c.name}`, (r) => r.cliStart?.[i]?.ratio, 2));
  }
  printTable(head, rows);
  console.log('\ntargets: query p50 within 2× of the embedded engine; ingest at least 1/2 of it');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
