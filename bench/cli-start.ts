/**
 * How long the CLI takes to start, as a user sees it: the wall time of `transcripts --version`,
 * `--help` and `sessions --limit 5` (a command that only calls the API), each a fresh process,
 * next to `node -e 0` measured in the same run. Ratios, not milliseconds, compare across machines.
 *
 * Used by `npm run bench` (against its loaded instance); alone, `node dist/bench/cli-start.js
 * [--runs N]` starts a server of its own and backfills the corpus into it first.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { backfillCorpus, binPath, startTestServer } from '../test/support/api-server.js';

export interface CliStartRow {
  name: string;
  /** Median wall time, ms. */
  ms: number;
  /** Its ratio to `node -e 0`. */
  ratio: number;
  /** The target ratio, when the issue set one. */
  target?: number;
}

/** Wall time of one process, from spawn to exit; a non-zero exit is a failed measure. */
function timeProcess(args: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0) resolve(ms);
      else reject(new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`));
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/**
 * Median of `runs` per command. The commands take turns (one run of each, then again), so a
 * burst of load on the machine falls on all of them alike; one unmeasured round warms the disk
 * cache first.
 */
export async function measureCliStart(
  webapi: string,
  env: Record<string, string>,
  runs = 5,
): Promise<CliStartRow[]> {
  const commands: Array<{ name: string; args: string[]; target?: number }> = [
    { name: 'node -e 0', args: ['-e', '0'] },
    { name: 'transcripts --version', args: [binPath, '--version'], target: 1.3 },
    { name: 'transcripts --help', args: [binPath, '--help'] },
    {
      name: 'transcripts sessions --limit 5',
      args: [binPath, 'sessions', '--limit', '5', '--webapi', webapi],
      target: 2,
    },
  ];
  const times = commands.map(() => [] as number[]);
  for (let round = -1; round < runs; round++)
    for (const [i, c] of commands.entries()) {
      const ms = await timeProcess(c.args, env);
      if (round >= 0) times[i]!.push(ms);
    }
  const base = median(times[0]!);
  return commands.map((c, i) => ({
    name: c.name,
    ms: median(times[i]!),
    ratio: median(times[i]!) / base,
    target: c.target,
  }));
}

async function standalone() {
  const i = process.argv.indexOf('--runs');
  const runs = i > 0 ? Number(process.argv[i + 1]) : 5;
  const server = await startTestServer({ args: ['--no-import', '--no-watch'] });
  try {
    await backfillCorpus(server);
    for (const r of await measureCliStart(server.url, server.env, runs))
      console.log(
        `${r.name.padEnd(32)} ${r.ms.toFixed(0).padStart(5)} ms  ${r.ratio.toFixed(2)}×` +
          (r.target ? `  (target ≤ ${r.target}×)` : ''),
      );
  } finally {
    await server.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await standalone();
