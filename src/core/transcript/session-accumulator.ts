/**
 * Builds a session's `summary` document and its reconstructed `event` documents from projected
 * entries, incrementally: `state()` is plain JSON, so ingest can stop after any chunk and later
 * resume with only the new lines of an appended file, and end with exactly what one pass gives.
 *
 * Counting rules:
 * - Every file counts (main transcript and subagent files): before Claude Code 2.0 subagent lines
 *   lived in the main file, so counting them everywhere keeps old and new layouts comparable.
 *   Prompts and titles come from the main transcript only (a subagent's prompt is Claude's).
 * - Tokens are deduplicated by message id across files (usage.ts): a subagent file may open with
 *   a copy of a parent message.
 * - A compaction writes a `system:compact_boundary` line and then the `isCompactSummary` user line
 *   (older versions write only the latter): the pair counts once.
 * - Titles: custom-title line (last) > ai-title line (last) > first real prompt > summary line (last).
 */
import { addActivity, parseTimestamp } from '../active-time.js';
import { MAIN_TRANSCRIPT, docIds } from '../doc-ids.js';
import type { EventDoc, ProjectedEntry, SummaryDoc, TokenUsage } from '../documents.js';
import { projectName } from '../project-name.js';
import { createUsageTally } from '../usage.js';
import {
  ACCUMULATOR_STATE_VERSION,
  emptyAccumulatorState,
  type AccumulatorState,
} from './accumulator-state.js';
import { cutString } from './caps.js';
import { codexMeta, isCodexRecord } from './codex-record.js';
import { isOpenCodeRecord, OPENCODE_SESSION, openCodeMeta } from './opencode-record.js';
import { preview, reconstructedEvent, type EventFields } from './reconstructed-event.js';
import { promptText } from './turns.js';

export type { AccumulatorState } from './accumulator-state.js';

export interface AccumulatorInit {
  sessionId: string;
  hostname: string | null;
  /** The recorder (`live`, `backfill`, …). */
  source: string;
  provenance: 'live' | 'backfilled';
  /**
   * The agent that wrote the session (`claude-code`, `codex`, `gemini`, …: the provider ids of
   * `src/ingest/providers/`). Absent in cursors written before it was kept.
   */
  agent?: string;
}

export interface SessionAccumulator {
  /**
   * Feeds one projected entry (with its parsed record, null if malformed) of file `file`
   * (`transcript.jsonl` or `subagents/<name>.jsonl`). Returns the reconstructed events it completes.
   */
  add(entry: ProjectedEntry, record: Record<string, unknown> | null, file: string): EventDoc[];
  /** Records a file's current size and entry count (main transcript and each subagent file). */
  setFile(file: string, bytes: number, entries: number, agentId?: string): void;
  /** JSON-serialisable snapshot; pass it to `createAccumulator` to resume. */
  state(): AccumulatorState;
  /** The summary as of everything fed so far. */
  summary(): Omit<SummaryDoc, '_rev'>;
}

/** Tool uses remembered while waiting for their result; the oldest are forgotten first. */
const PENDING_TOOLS_MAX = 1024;
const TITLE_CHARS = 200;
/** cwd, branch and version come from the lines; a hostile one must not bloat the state. */
const META_CHARS = 1024;
const EPOCH = '1970-01-01T00:00:00.000Z';

/** First non-empty line of a text, trimmed and capped: the title form of a prompt or summary. */
function titleOf(text: string | undefined): string | null {
  const line = text?.trim().split('\n', 1)[0]?.trim();
  return line ? cutString(line, TITLE_CHARS) : null;
}

function meta(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? cutString(v, META_CHARS) : null;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function createAccumulator(init: AccumulatorInit, resume?: AccumulatorState): SessionAccumulator {
  if (resume && resume.v !== ACCUMULATOR_STATE_VERSION) {
    throw new Error(`accumulator state version ${String(resume.v)} is not ${ACCUMULATOR_STATE_VERSION}`);
  }
  const s: AccumulatorState = resume ? structuredClone(resume) : emptyAccumulatorState();
  const usage = createUsageTally(s.usage);
  const pending = new Map(s.pendingTools);
  // A Map, not an object: a tool named `__proto__` must count like any other.
  const byName = new Map(Object.entries(s.toolCallsByName));
  const cwd = () => s.cwd.main ?? s.cwd.other;

  function noteMeta(line: Record<string, unknown>, slot: 'main' | 'other'): void {
    const record = isCodexRecord(line) ? codexMeta(line) : isOpenCodeRecord(line) ? openCodeMeta(line) : line;
    const c = meta(record.cwd);
    if (c && s.cwd[slot] === null) s.cwd[slot] = c;
    const branch = meta(record.gitBranch);
    if (branch && s.gitBranch[slot] === null) s.gitBranch[slot] = branch;
    const version = meta(record.version);
    if (version) s.version[slot] = version;
  }

  function noteCompaction(entry: ProjectedEntry, file: AccumulatorState['fileState'][string]): void {
    if (entry.kind === 'system:compact_boundary') {
      s.counts.compactions++;
      file.boundaryOpen = true;
    } else if (entry.isCompactSummary) {
      if (file.boundaryOpen) file.boundaryOpen = false;
      else s.counts.compactions++;
    }
  }

  function noteTitle(entry: ProjectedEntry): void {
    if (entry.kind === 'custom-title') s.titles.custom = titleOf(entry.text) ?? s.titles.custom;
    // OpenCode's title is generated by a model, like Claude Code's ai-title.
    else if (entry.kind === 'ai-title' || entry.kind === OPENCODE_SESSION)
      s.titles.ai = titleOf(entry.text) ?? s.titles.ai;
    else if (entry.kind === 'summary') s.titles.summary = titleOf(entry.text) ?? s.titles.summary;
  }

  function add(entry: ProjectedEntry, record: Record<string, unknown> | null, file: string): EventDoc[] {
    const isMain = file === MAIN_TRANSCRIPT;
    const fileState = (s.fileState[file] ??= { lastTimestamp: null, boundaryOpen: false });
    const counts = s.counts;
    counts.entries++;
    if (entry.malformed) counts.malformed++;
    if (entry.isSidechain) counts.sidechainEntries++;
    counts.images += entry.images?.length ?? 0;
    if (entry.secrets && s.secrets) {
      // Through a Map: a pattern of the user's may be named `__proto__`.
      const sum = new Map(Object.entries(s.secrets));
      for (const [rule, n] of Object.entries(entry.secrets)) sum.set(rule, (sum.get(rule) ?? 0) + n);
      s.secrets = Object.fromEntries(sum);
    }
    if (record) noteMeta(record, isMain ? 'main' : 'other');

    const ms = parseTimestamp(entry.timestamp);
    if (ms !== null) {
      s.firstMs = s.firstMs === null ? ms : Math.min(s.firstMs, ms);
      s.lastMs = s.lastMs === null ? ms : Math.max(s.lastMs, ms);
      addActivity(s.activity, ms);
      fileState.lastTimestamp = iso(ms);
    }
    if (entry.model && entry.model !== '<synthetic>') {
      const seen = s.models[entry.model];
      if (seen === undefined || (ms !== null && (seen === null || ms < seen))) s.models[entry.model] = ms;
    }
    if (isMain && entry.isSidechain && entry.parentUuid === null)
      s.sidechainThreads = (s.sidechainThreads ?? 0) + 1;
    if (entry.role === 'assistant' || entry.usage) {
      const firstLineOfMessage = usage.add(entry.messageId, entry.usage, entry.model);
      if (entry.role === 'assistant' && firstLineOfMessage) {
        counts.assistantMessages++;
        if (isMain && !entry.isSidechain && entry.model && entry.model !== '<synthetic>') {
          const main = (s.mainMessages ??= {});
          main[entry.model] = (main[entry.model] ?? 0) + 1;
        }
      }
    }
    noteCompaction(entry, fileState);

    // Events need a time: the entry's own, else the last one seen in this file, else none is made.
    const events: EventDoc[] = [];
    const at = fileState.lastTimestamp;
    const emit = (event: string, fields?: EventFields) => {
      if (at === null) return;
      const origin = {
        sessionId: init.sessionId,
        file,
        entryIndex: entry.index,
        timestamp: at,
        cwd: meta(record?.cwd) ?? cwd(),
        hostname: init.hostname,
        ...(entry.agentId ? { agentId: entry.agentId } : {}),
      };
      const doc = reconstructedEvent(origin, event, fields);
      // Two results for one tool-use id in one line would collide; keep the first.
      if (!events.some((e) => e._id === doc._id)) events.push(doc);
    };

    if (isMain) {
      if (!s.sessionStartEmitted && ms !== null) {
        emit('SessionStart');
        s.sessionStartEmitted = true;
      }
      noteTitle(entry);
      const prompt = promptText(entry);
      if (prompt !== null) {
        counts.prompts++;
        s.titles.prompt ??= titleOf(prompt);
        emit('UserPromptSubmit', { preview: preview(prompt) });
      }
    }

    for (const use of entry.toolUses ?? []) {
      counts.toolCalls++;
      const name = use.name || 'unknown';
      byName.set(name, (byName.get(name) ?? 0) + 1);
      if (!use.id) continue;
      pending.delete(use.id);
      pending.set(use.id, name);
      if (pending.size > PENDING_TOOLS_MAX) pending.delete(pending.keys().next().value!);
    }
    for (const result of entry.toolResults ?? []) {
      if (result.isError) counts.toolErrors++;
      const toolName = pending.get(result.toolUseId);
      pending.delete(result.toolUseId);
      const fields: EventFields = { success: !result.isError };
      if (toolName !== undefined) fields.toolName = toolName;
      if (result.toolUseId) fields.toolUseId = result.toolUseId;
      if (result.isError) fields.error = preview(result.content);
      emit(result.isError ? 'PostToolUseFailure' : 'PostToolUse', fields);
    }
    return events;
  }

  function setFile(file: string, bytes: number, entries: number, agentId?: string): void {
    const size = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
    s.files[file] = { bytes: size(bytes), entries: size(entries), ...(agentId ? { agentId } : {}) };
  }

  function state(): AccumulatorState {
    s.usage = usage.state();
    s.pendingTools = [...pending];
    s.toolCallsByName = Object.fromEntries(byName);
    return structuredClone(s);
  }

  function summary(): Omit<SummaryDoc, '_rev'> {
    const sessionCwd = cwd();
    const firstActivity = s.firstMs === null ? null : iso(s.firstMs);
    const lastActivity = s.lastMs === null ? null : iso(s.lastMs);
    const t = s.titles;
    const [title, titleSource] =
      t.custom !== null
        ? [t.custom, 'custom' as const]
        : t.ai !== null
          ? [t.ai, 'ai' as const]
          : t.prompt !== null
            ? [t.prompt, 'prompt' as const]
            : t.summary !== null
              ? [t.summary, 'summary' as const]
              : [null, null];
    const names = Object.keys(s.files).sort((a, b) =>
      a === MAIN_TRANSCRIPT ? -1 : b === MAIN_TRANSCRIPT ? 1 : a < b ? -1 : a > b ? 1 : 0,
    );
    const files = names.map((name) => ({ name, ...s.files[name]! }));
    return {
      _id: docIds.summary(init.sessionId),
      type: 'summary',
      sessionId: init.sessionId,
      timestamp: lastActivity ?? firstActivity ?? EPOCH,
      cwd: sessionCwd,
      project: projectName(sessionCwd),
      models: orderedModels(s.models, s.mainMessages ?? {}),
      hostname: init.hostname,
      gitBranch: s.gitBranch.main ?? s.gitBranch.other,
      source: init.source,
      ...(init.agent ? { agent: init.agent } : {}),
      provenance: init.provenance,
      version: s.version.main ?? s.version.other,
      firstActivity,
      lastActivity,
      title,
      titleSource,
      counts: { ...s.counts },
      toolCallsByName: Object.fromEntries(byName),
      tokens: usage.totals(),
      ...tokensByModel(usage.byModel()),
      transcriptBytes: files.reduce((sum, f) => sum + f.bytes, 0),
      files,
      subagents: names.filter((n) => n !== MAIN_TRANSCRIPT).length + (s.sidechainThreads ?? 0),
      activity: s.activity.map(([a, b]) => [a, b] as [number, number]),
      ...secretsOf(s.secrets),
    };
  }

  return { add, setFile, state, summary };
}

/**
 * Models by how many assistant messages of the main conversation each wrote, most first (the
 * first is the primary model: a subagent's or a warm-up's model does not outrank it), then by the
 * time they were first used (untimed ones last), then by name.
 */
function orderedModels(
  models: Record<string, number | null>,
  mainMessages: Record<string, number>,
): string[] {
  const used = (m: string) => mainMessages[m] ?? 0;
  const at = (m: string) => models[m] ?? Number.POSITIVE_INFINITY;
  return Object.keys(models).sort(
    (a, b) => used(b) - used(a) || at(a) - at(b) || (a < b ? -1 : a > b ? 1 : 0),
  );
}

/** The summary's `secrets`: left out when the session's earlier part was not counted. */
function secretsOf(byRule: Record<string, number> | undefined): Pick<SummaryDoc, 'secrets'> {
  if (!byRule) return {};
  const sorted = Object.fromEntries(Object.entries(byRule).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { secrets: { total: Object.values(byRule).reduce((a, b) => a + b, 0), byRule: sorted } };
}

/** The summary's `tokensByModel`: left out when the split is unknown. */
function tokensByModel(split: Record<string, TokenUsage> | null): {
  tokensByModel?: Record<string, TokenUsage>;
} {
  return split ? { tokensByModel: split } : {};
}
