/**
 * A real `transcripts serve` child process for API and CLI tests: a free port (the server binds
 * port 0 and prints where it listens), a temporary CT_HOME, and HOME pointed at an empty temp
 * dir so it never imports the developer's own ~/.claude/projects. Runs the built CLI in dist/
 * (test/support/global-setup.ts builds it), as users do.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { claudeCorpusDir, repoRoot } from './paths.js';

export const binPath = path.join(repoRoot, 'bin', 'transcripts.js');

/** The environment without variables that would leak the developer's own instance into a test. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (/^(WEBAPI_|WEBUI_|CT_|XDG_|CODEX_HOME$|GEMINI_CLI_HOME$)/.test(k) && k !== 'CT_CORPUS_DIR') continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface TestServer {
  /** Base URL to dial, e.g. `http://127.0.0.1:39123`. */
  url: string;
  port: number;
  /** The temp dir holding `ct/` (CT_HOME) and `home/` (HOME). */
  root: string;
  env: Record<string, string>;
  process: ChildProcess;
  /** Everything the server printed so far. */
  logs(): string;
  /** SIGTERM, wait for exit; returns the exit code. Removes the temp dir unless `keep`. */
  stop(options?: { keep?: boolean }): Promise<number | null>;
}

export interface StartTestServerOptions {
  /** Extra environment (e.g. CT_API_TOKEN, WEBAPI_HOST); undefined deletes a variable. */
  env?: Record<string, string | undefined>;
  /** Extra `serve` arguments. */
  args?: string[];
  /** Reuse an existing root (CT_HOME and HOME inside it), e.g. to restart over the same store. */
  root?: string;
  timeoutMs?: number;
}

export async function startTestServer(options: StartTestServerOptions = {}): Promise<TestServer> {
  const root = options.root ?? mkdtempSync(path.join(tmpdir(), 'ct-api-'));
  mkdirSync(path.join(root, 'home'), { recursive: true });
  const env = cleanEnv({
    CT_HOME: path.join(root, 'ct'),
    HOME: path.join(root, 'home'),
    WEBAPI_PORT: '0',
    ...options.env,
  });
  const child = spawn(process.execPath, [binPath, 'serve', ...(options.args ?? [])], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${options.timeoutMs ?? 30_000} ms:\n${output}`));
    }, options.timeoutMs ?? 30_000);
    const check = () => {
      const m = / UI (http:\/\/\S+)\/app\//.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });

  return {
    url,
    port: Number(new URL(url).port),
    root,
    env,
    process: child,
    logs: () => output,
    async stop(opts = {}) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const code = await exited;
      if (!opts.keep) rmSync(root, { recursive: true, force: true });
      return code;
    },
  };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI (`node bin/transcripts.js …`) to completion. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`transcripts ${args.join(' ')} timed out\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Backfills the shared corpus into a server through the API (the way a user would). */
export function backfillCorpus(server: TestServer, dir = claudeCorpusDir): Promise<CliResult> {
  return runCli(['backfill', '--dir', dir, '--webapi', server.url, '--host', 'test-host'], {
    env: server.env,
  });
}

/** fetch against a test server, returning status and parsed JSON (or text). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read bodies loosely
export async function getJson<T = any>(
  server: { url: string },
  pathAndQuery: string,
  init?: RequestInit,
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(server.url + pathAndQuery, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: body as T, headers: res.headers };
}

/** POST/PUT JSON helper. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read bodies loosely
export function sendJson<T = any>(
  server: { url: string },
  method: string,
  pathAndQuery: string,
  json: unknown,
) {
  return getJson<T>(server, pathAndQuery, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(json),
  });
}

/** A response body as loosely typed JSON (Node's fetch types it as unknown). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read bodies loosely
export async function readJson(res: Response): Promise<any> {
  return res.json();
}
