/**
 * The entry point Claude Code runs: `transcripts hook`, payload on stdin. bin/transcripts.js
 * comes here directly (not through commander and every other command's imports), because Node
 * start-up is most of a hook call's cost. Always exits 0 and prints nothing on stdout: Claude
 * Code reads a hook's stdout (as context for some events, as decisions for others).
 */
import { runHook } from '../live/hook-run.js';
import { envValue, type Env } from '../config/paths.js';

/** Payloads past this are cut (and the cut noted); a real one is a few KB, a big tool call a few MB. */
export const HOOK_INPUT_CAP = 32 * 1024 * 1024;
/** Last resort against anything that hangs (a stdin that never closes, a stuck socket). */
const WATCHDOG_MS = 20_000;

async function readInput(stream: NodeJS.ReadableStream): Promise<{ input: Buffer; totalBytes: number }> {
  const chunks: Buffer[] = [];
  let kept = 0;
  let total = 0;
  for await (const chunk of stream) {
    const b = chunk as Buffer;
    total += b.length;
    if (kept < HOOK_INPUT_CAP) {
      const part = b.subarray(0, HOOK_INPUT_CAP - kept);
      chunks.push(part);
      kept += part.length;
    }
  }
  return { input: Buffer.concat(chunks), totalBytes: total };
}

export async function hookMain(options: { stdin?: NodeJS.ReadStream; env?: Env } = {}): Promise<0> {
  const stdin = options.stdin ?? process.stdin;
  const env = options.env ?? process.env;
  setTimeout(() => process.exit(0), WATCHDOG_MS).unref();
  // A stray error (a socket event after the work was done, a rejected promise nobody awaited)
  // would make Node exit 1: say it on stderr only when asked, and exit 0 all the same.
  const stray = (err: unknown) => {
    if (envValue(env, 'CT_HOOK_DEBUG'))
      process.stderr.write(`transcripts hook: ${String((err as Error)?.stack ?? err)}\n`);
    process.exit(0);
  };
  process.on('uncaughtException', stray);
  process.on('unhandledRejection', stray);
  try {
    if (stdin.isTTY) {
      process.stderr.write(
        'transcripts hook: reads a Claude Code hook payload on stdin (see `transcripts hooks install`)\n',
      );
      return 0;
    }
    const { input, totalBytes } = await readInput(stdin);
    const line = await runHook({ input, totalBytes, env });
    if (envValue(env, 'CT_HOOK_DEBUG')) process.stderr.write(`${JSON.stringify(line)}\n`);
  } catch {
    // runHook never throws; reading stdin might. Either way Claude Code must not notice.
  }
  return 0;
}
