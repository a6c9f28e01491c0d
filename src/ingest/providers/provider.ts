/**
 * What `transcripts` must know of one agent's session files to read them (issue 41). Each agent
 * is a folder beside this file; `index.ts` lists them. Everything else — the tree walk, the
 * watcher, the incremental ingest, the store — is shared and never names an agent.
 */
import type { Env } from '../../config/paths.js';
import type { Agent } from '../../core/agents.js';
import type { ProjectedEntry } from '../../core/documents.js';

/** The agents, by the ids sessions record (`summary.agent`, the `agent` filter): core/agents.ts. */
export type AgentId = Agent;

/** What a session file is, from its path alone. */
export interface TranscriptPath {
  kind: 'main' | 'subagent';
  /**
   * Known from the layout; null when the content must say: an old-layout Claude Code
   * `agent-*.jsonl` (its lines name the parent), a main file whose name is not its session's id.
   */
  sessionId: string | null;
  /** Object name within the session: `transcript.jsonl` or `subagents/<file>`. */
  objectName: string;
  /** The agent whose file it is, as far as the path tells (the content may say otherwise). */
  agent: AgentId;
  /**
   * When two files would be one session's same object, the higher rank is read and the other
   * passed over in silence (Gemini CLI copies a resumed `.json` session into a `.jsonl` beside
   * it). Equal ranks: the first is read, the other reported.
   */
  rank?: number;
  /**
   * A file of a store that holds many sessions (a `storage: 'store'` provider): the store's path
   * (OpenCode's `storage/` folder, or its `opencode.db`). Such a file is never read on its own: a
   * change to it has the whole store read again (`ingest/ingest-store.ts`).
   */
  store?: string;
}

/** A file's session, and the agent that wrote it, as its content says. */
export interface FileIdentity {
  sessionId: string;
  agent: AgentId;
}

/** One projected entry, with what the session summary may read from its record. */
export interface ProjectedRecord {
  entry: ProjectedEntry;
  /**
   * What the session accumulator reads besides the entry (cwd, gitBranch, version): the parsed
   * line for Claude Code and Codex; null for a malformed one.
   */
  record: Record<string, unknown> | null;
}

/**
 * How a rewritten file projects: every entry of the file as it is now, or null when the file is
 * caught half written (and not yet `settled`): it is read again once it changes or settles.
 */
export type FileProjection = ProjectedRecord[] | null;

interface ProviderBase {
  id: AgentId;
  /** As people call it: `Claude Code`, `Codex CLI`. */
  name: string;
  /**
   * Where its sessions live by default on `platform`, honouring the agent's own settings in
   * `env` (`CODEX_HOME`, `GEMINI_CLI_HOME`); roots that do not exist are the caller's to skip.
   */
  defaultRoots(env: Env, platform?: NodeJS.Platform): string[];
  /** The environment variables that move those roots (`HOME`, `CODEX_HOME`), for messages. */
  settings: string[];
  /** What `path` is, when it is one of this agent's session files; null otherwise. */
  classify(path: string): TranscriptPath | null;
  /**
   * The session of a file whose path does not name it (`kind.sessionId` null), read from its
   * content; null when the content names none (a subagent file of no known session).
   */
  identify(path: string, kind: TranscriptPath): Promise<FileIdentity | null>;
  /** A folder of its tree that never holds sessions and is not walked (OpenCode's snapshots). */
  skipFolder?(path: string): boolean;
}

/**
 * Files that only grow by whole lines (Claude Code, Codex CLI): read incrementally from a byte
 * offset, each line projected on its own (`core/transcript/project-entry.ts`).
 */
export interface AppendOnlyProvider extends ProviderBase {
  storage: 'append-only';
}

/**
 * Files rewritten in place, or whose later lines change earlier ones (Gemini CLI): a changed file
 * (by content hash) is projected whole again and its entries replace the ones stored, so a file
 * saved three times gives what one clean read gives (`ingest/ingest-rewritten.ts`).
 */
export interface RewrittenProvider extends ProviderBase {
  storage: 'rewritten';
  /**
   * Projects the whole file. `settled`: the file has not changed for a while, so a half-written
   * end is a truncated file (kept as a malformed entry) rather than a write in progress.
   */
  projectFile(bytes: Buffer, file: { path: string; settled: boolean }): FileProjection;
  /** What the session summary learns from beside the file (Gemini: the project's root). */
  sessionMeta?(path: string, kind: TranscriptPath): Promise<Record<string, unknown>>;
}

/** One session of a store, as the objects we keep of it (JSONL bytes each), or why it is unreadable. */
export type StoreSession =
  | { sessionId: string; objects: Array<{ objectName: string; bytes: Buffer }> }
  | { sessionId: string; file: string; error: string };

/**
 * Sessions kept as many documents in one store shared by all of them (OpenCode: small JSON files
 * under `storage/`, or rows of `opencode.db`). The provider lists the sessions itself and gives
 * each one's objects whole, as the JSONL lines we keep; a session whose objects' content hash
 * changed is projected whole again and replaces what was stored, as for a rewritten file
 * (`ingest/ingest-rewritten.ts`), so reading again never duplicates an entry.
 */
export interface StoreProvider extends ProviderBase {
  storage: 'store';
  /**
   * Every session of the store at `store` (a path `classify` gave as `TranscriptPath.store`).
   * `changed`, when given: the store's files changed since it was last read; the provider may then
   * give only the sessions they belong to (whole: a root with all its children).
   */
  readStore(store: string, changed?: readonly string[]): AsyncIterable<StoreSession>;
  /** Projects one object's lines, every entry of it. */
  projectFile(bytes: Buffer, file: { path: string; settled: boolean }): FileProjection;
  sessionMeta?: undefined;
}

export type AgentProvider = AppendOnlyProvider | RewrittenProvider | StoreProvider;
