/**
 * The agents whose sessions `transcripts` reads, one folder each. To add one: a folder with its
 * `AgentProvider` (provider.ts), and a line here; see docs/architecture.md.
 */
import type { Env } from '../../config/paths.js';
import { claudeCode } from './claude-code/index.js';
import { codex } from './codex/index.js';
import { gemini } from './gemini/index.js';
import { opencode } from './opencode/index.js';
import type { AgentId, AgentProvider, FileIdentity, TranscriptPath } from './provider.js';

export type { AgentId, AgentProvider, FileIdentity, StoreProvider, TranscriptPath } from './provider.js';

/**
 * In the order a path is offered to them: the ones with narrow rules first, Claude Code last (it
 * takes any other `.jsonl`, as backfill of an arbitrary tree always has).
 */
export const PROVIDERS: readonly AgentProvider[] = [opencode, gemini, codex, claudeCode];

export function providerById(id: AgentId): AgentProvider {
  const found = PROVIDERS.find((p) => p.id === id);
  if (!found) throw new Error(`no provider for agent ${id}`);
  return found;
}

/** What a path is, by the first agent that claims it; null for a file no agent writes. */
export function classifyPath(path: string): TranscriptPath | null {
  for (const p of PROVIDERS) {
    const kind = p.classify(path);
    if (kind) return kind;
  }
  return null;
}

/** The session (and agent) of a file, its path's answer or else its content's. */
export function identifyFile(path: string, kind: TranscriptPath): Promise<FileIdentity | null> {
  return providerById(kind.agent).identify(path, kind);
}

/** Every agent's default session folders, in PROVIDERS' order reversed (Claude Code's first). */
export function defaultRoots(env: Env, platform: NodeJS.Platform = process.platform): string[] {
  return [...PROVIDERS].reverse().flatMap((p) => p.defaultRoots(env, platform));
}

/** A folder some agent says never holds sessions (OpenCode's snapshots): not walked nor watched. */
export function isSkippedFolder(path: string): boolean {
  return PROVIDERS.some((p) => p.skipFolder?.(path) === true);
}
