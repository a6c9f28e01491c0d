/**
 * Plays a real corpus session "as it happened": appends its transcript to a projects directory
 * line by line and, between lines, calls the real `transcripts hook` (the built CLI, a child
 * process) with the payloads Claude Code would send at that moment — SessionStart, a
 * UserPromptSubmit before each prompt line, PreToolUse after each tool use, PostToolUse or
 * PostToolUseFailure after each tool result, SubagentStart/Stop around a subagent's own file,
 * Stop before each new prompt and at the end, SessionEnd last. The clock is the transcript's:
 * each hook runs with CT_NOW = the time of the line it follows, so a run takes seconds, not the
 * session's hours, and every event document is predictable (see `expectedHookDocs`).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import type { EventDoc } from '../../src/core/documents.js';
import { projectLine } from '../../src/core/transcript/project-entry.js';
import { promptText } from '../../src/core/transcript/turns.js';
import { hookEventDoc, payloadHash } from '../../src/live/hook-event.js';
import { parseHookPayload, type HookPayload } from '../../src/live/hook-payload.js';
import { binPath } from '../support/api-server.js';

export type Step =
  | { kind: 'line'; file: string; text: string }
  | { kind: 'hook'; payload: Record<string, unknown>; at: string };

export interface SessionSource {
  /** Corpus transcript (main file). */
  main: string;
  /** Corpus subagent files, played when the main file first calls the Agent/Task tool. */
  subagents?: string[];
}

export interface PlayTarget {
  sessionId: string;
  /** Where the transcript is written: `<projects>/<project>/<sessionId>.jsonl`. */
  transcriptPath: string;
  cwd: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function blocks(record: Record<string, unknown> | null, type: string): Array<Record<string, unknown>> {
  const content = isRecord(record?.message) ? record.message.content : undefined;
  return Array.isArray(content)
    ? content.filter((b): b is Record<string, unknown> => isRecord(b) && b.type === type)
    : [];
}

const linesOf = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');

/** The steps of a session: transcript lines and the hook calls between them. */
export function planSession(source: SessionSource, target: PlayTarget): Step[] {
  const steps: Step[] = [];
  const common = {
    session_id: target.sessionId,
    transcript_path: target.transcriptPath,
    cwd: target.cwd,
    permission_mode: 'default',
  };
  const toolNames = new Map<string, { name: string; input: unknown }>();
  let at = '';
  let prompts = 0;
  const subagents = [...(source.subagents ?? [])];
  const hook = (event: string, fields: Record<string, unknown> = {}) =>
    steps.push({ kind: 'hook', at, payload: { ...common, hook_event_name: event, ...fields } });

  const playFile = (lines: string[], file: string, main: boolean) => {
    let index = 0;
    for (const text of lines) {
      const { entry, record } = projectLine(Buffer.from(text), {
        index: index++,
        byteStart: 0,
        byteEnd: text.length,
      });
      if (entry.timestamp && !Number.isNaN(Date.parse(entry.timestamp)))
        at = new Date(entry.timestamp).toISOString();
      if (!at) at = '2025-01-01T00:00:00.000Z';
      if (steps.length === 0) hook('SessionStart', { source: 'startup' });
      const prompt = main ? promptText(entry) : null;
      if (prompt !== null) {
        if (prompts++ > 0) hook('Stop', { stop_hook_active: false });
        hook('UserPromptSubmit', { prompt });
      }
      steps.push({ kind: 'line', file, text });
      for (const use of blocks(record, 'tool_use')) {
        const id = String(use.id);
        toolNames.set(id, { name: String(use.name), input: use.input });
        hook('PreToolUse', { tool_name: use.name, tool_use_id: id, tool_input: use.input });
        if (main && (use.name === 'Agent' || use.name === 'Task') && subagents.length)
          playAgent(subagents.shift()!);
      }
      for (const result of blocks(record, 'tool_result')) {
        const id = String(result.tool_use_id);
        const tool = toolNames.get(id);
        const failed = result.is_error === true;
        hook(failed ? 'PostToolUseFailure' : 'PostToolUse', {
          tool_name: tool?.name ?? 'unknown',
          tool_use_id: id,
          tool_input: tool?.input ?? {},
          ...(failed
            ? { error: typeof result.content === 'string' ? result.content : 'failed' }
            : { tool_response: result.content }),
        });
      }
    }
  };

  const playAgent = (file: string) => {
    const agentId = /agent-(.+)\.jsonl$/.exec(path.basename(file))?.[1] ?? 'agent';
    const dest = path.join(
      path.dirname(target.transcriptPath),
      target.sessionId,
      'subagents',
      path.basename(file),
    );
    hook('SubagentStart', { agent_id: agentId, agent_type: 'general-purpose' });
    playFile(linesOf(file), dest, false);
    hook('SubagentStop', {
      agent_id: agentId,
      agent_type: 'general-purpose',
      stop_hook_active: false,
      agent_transcript_path: dest,
    });
  };

  playFile(linesOf(source.main), target.transcriptPath, true);
  for (const rest of subagents) playAgent(rest);
  hook('Stop', { stop_hook_active: false });
  hook('SessionEnd', { reason: 'prompt_input_exit' });
  return steps;
}

/** The event documents the hook calls of `steps` must produce (the hook builds them the same way). */
export function expectedHookDocs(steps: Step[]): EventDoc[] {
  return steps.flatMap((s) => {
    if (s.kind !== 'hook') return [];
    const input = Buffer.from(JSON.stringify(s.payload));
    const p = parseHookPayload(input) as HookPayload & { sessionId: string };
    return [hookEventDoc(p, payloadHash(input), { now: Date.parse(s.at), hostname: hostname() })];
  });
}

export interface HookCall {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the built `transcripts hook` with a payload on stdin. */
export function callHook(input: string | Buffer, env: Record<string, string>): Promise<HookCall> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [binPath, 'hook'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    child.stdin.on('error', () => undefined); // a hook that exits before reading all of a huge payload
    child.stdin.end(input);
  });
}

/** The environment a hook runs with: the server's dirs, found through instance.env (no WEBAPI_PORT). */
export function hookEnv(serverEnv: Record<string, string>, at: string): Record<string, string> {
  const env: Record<string, string> = { ...serverEnv, CT_NOW: at };
  delete env.WEBAPI_PORT;
  return env;
}

export interface PlayOptions {
  env: (at: string) => Record<string, string>;
  /** Called before step `i` (of `total`); may stop or start servers, or assert. */
  before?: (i: number, total: number, step: Step) => Promise<void> | void;
  /** Skip the hook calls (the watcher records alone). */
  noHooks?: boolean;
}

/** Plays the steps; returns every hook call's outcome (all must exit 0, silently). */
export async function play(steps: Step[], options: PlayOptions): Promise<HookCall[]> {
  const calls: HookCall[] = [];
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    await options.before?.(i, steps.length, step);
    if (step.kind === 'line') {
      mkdirSync(path.dirname(step.file), { recursive: true });
      appendFileSync(step.file, `${step.text}\n`);
    } else if (!options.noHooks) {
      calls.push(await callHook(JSON.stringify(step.payload), options.env(step.at)));
    }
  }
  return calls;
}

/** Writes an empty transcript file (Claude Code creates it at start). */
export function touch(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, '');
}
