/**
 * `node dist/bench/hook-latency.js [--session FILE] [--rounds N]`: how long Claude Code waits for
 * `transcripts hook`. Starts a real server, then appends a corpus transcript line by line and,
 * after each line, runs the built `transcripts hook` (a fresh process, as Claude Code does) with a
 * PreToolUse-like payload; then the same with the API stopped (every call spools). Prints the
 * wall time per call (process start to exit): median, p90, worst.
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { binPath, startTestServer } from '../test/support/api-server.js';
import { claudeCorpusDir } from '../test/support/paths.js';

function callHook(payload: string, env: Record<string, string>, argv = [binPath, 'hook']): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, argv, { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', () => resolve(performance.now() - t0));
    child.stdin.end(payload);
  });
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const row = (label: string, xs: number[]) =>
  `${label.padEnd(28)} calls ${String(xs.length).padStart(4)}   median ${pct(xs, 0.5).toFixed(0).padStart(4)} ms   p90 ${pct(xs, 0.9).toFixed(0).padStart(4)} ms   worst ${Math.max(
    ...xs,
  )
    .toFixed(0)
    .padStart(4)} ms`;

async function main() {
  const args = process.argv.slice(2);
  const file =
    args[args.indexOf('--session') + 1] && args.includes('--session')
      ? args[args.indexOf('--session') + 1]!
      : path.join(claudeCorpusDir, 'slopus__happy', 'f0b4ca22-f8e4-4c07-a952-8302b638e125.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  const root = await mkdtemp(path.join(os.tmpdir(), 'ct-hook-bench-'));
  const server = await startTestServer({ root, args: ['--no-watch', '--no-import'] });
  const env: Record<string, string> = { ...server.env };
  delete env.WEBAPI_PORT; // found through instance.env, as an installed hook does
  const sid = 'bench-session';
  const transcript = path.join(root, 'home', '.claude', 'projects', 'p', `${sid}.jsonl`);
  mkdirSync(path.dirname(transcript), { recursive: true });
  const payload = (i: number) =>
    JSON.stringify({
      session_id: sid,
      transcript_path: transcript,
      cwd: '/work',
      hook_event_name: 'PreToolUse',
      permission_mode: 'default',
      tool_name: 'Bash',
      tool_use_id: `toolu_${i}`,
      tool_input: { command: 'npm test', description: 'run the tests' },
    });
  try {
    // What no hook can beat: starting Node and reading stdin.
    const bare: number[] = [];
    for (let i = 0; i < 20; i++) bare.push(await callHook(payload(i), env, ['-e', 'process.stdin.resume()']));
    const up: number[] = [];
    for (let i = 0; i < lines.length; i++) {
      appendFileSync(transcript, `${lines[i]}\n`);
      up.push(await callHook(payload(i), env));
    }
    const nothingNew: number[] = [];
    for (let i = 0; i < 20; i++) nothingNew.push(await callHook(payload(10_000 + i), env));
    await server.stop({ keep: true });
    const down: number[] = [];
    for (let i = 0; i < 20; i++) down.push(await callHook(payload(20_000 + i), env));
    const bytes = readFileSync(transcript).length;
    console.log(
      `hook latency (wall time per call, fresh process each), ${path.basename(file)}: ${lines.length} lines, ${(bytes / 1024).toFixed(0)} KB`,
    );
    console.log(row('node start-up alone', bare));
    console.log(row('API up, one line appended', up));
    console.log(row('API up, nothing appended', nothingNew));
    console.log(row('API down (spooled)', down));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
