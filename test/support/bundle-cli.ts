/**
 * Runs CLI commands in process through `main` (the real commander wiring, exit codes and error
 * mapping) with captured output, or as a child process when a test must kill it. Both talk to a
 * real API server (api-server.ts); nothing is stubbed.
 */
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { createIo } from '../../src/cli/io.js';
import { binPath, cleanEnv } from './api-server.js';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `transcripts <args>` in this process; `tty` makes stdout and stderr claim to be terminals. */
export async function runCommand(
  args: string[],
  options: { env?: Record<string, string | undefined>; tty?: boolean; columns?: number } = {},
): Promise<CommandResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  if (options.tty) {
    Object.assign(stdout, { isTTY: true, columns: options.columns ?? 100 });
    Object.assign(stderr, { isTTY: true, columns: options.columns ?? 100 });
  }
  const io = createIo({ stdout, stderr, isTTY: options.tty ?? false });
  const code = await main(args, { io, env: cleanEnv(options.env ?? {}) });
  return { code, stdout: out, stderr: err };
}

/**
 * `transcripts <args>` as a child process (the built code), SIGKILLed after `killAfterMs` or as soon
 * as its stderr matches `killWhen` (progress lines say which phase it is in).
 */
export function runCommandChild(
  args: string[],
  options: { env?: Record<string, string | undefined>; killAfterMs?: number; killWhen?: RegExp } = {},
): Promise<CommandResult & { killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [binPath, ...args], {
      env: cleanEnv(options.env ?? {}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (options.killWhen && !killed && options.killWhen.test(stderr)) killed = child.kill('SIGKILL');
    });
    const timer =
      options.killAfterMs === undefined
        ? undefined
        : setTimeout(() => (killed = child.kill('SIGKILL')), options.killAfterMs);
    child.once('error', reject);
    child.once('exit', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, killed });
    });
  });
}
