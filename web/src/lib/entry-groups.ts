/**
 * Groups projected transcript entries into the items of the conversation reader:
 *
 * - a `message` per user prompt or assistant text/thinking. A user line is the person speaking
 *   only when the You turns count it (`promptText`, shared with `GET /sessions/{id}/turns` and the
 *   CLI), shown as /turns has it (a prompting slash command as `/init args`); any other user line
 *   with text — a command caveat, a local command or its output, an interruption marker, a system
 *   reminder, a subagent's prompt — is a labelled notice (`noticeLabel`);
 * - a `tools` item per run of tool calls (each call paired with its result wherever the result
 *   line is), folded into one line by the reader;
 * - subagent work (sidechain lines in the main file, the pre-2.0 layout) grouped under the
 *   Task/Agent call that started it;
 * - a `notice` per system line, compaction summary, title or malformed line;
 * - a `meta` item folding consecutive bookkeeping lines (progress, snapshots, …).
 *
 * Entries arrive page by page, so the grouper is incremental: `append()` takes the next entries
 * and returns a new items array in which only the changed items are new objects (the reader's
 * rows can be memoised by identity). Every entry maps to exactly one item (`itemOf`).
 */
// The reader's classification lives beside the You turns' predicate in src/core (a runtime import
// from the server's sources, as queries/api.ts does for the API errors): the reader, /turns and
// the search hits' `kind` cannot disagree about what an entry is.
import {
  classifyEntry,
  noticeLabel,
  noticeLabelAfter,
  youText,
  type EntryLike,
} from '../../../src/core/transcript/entry-kind.js';

export { classifyEntry, noticeLabel, youText };

/** A projected entry as the API sends it (a tool use's `input` may be absent on the wire). */
export type Entry = EntryLike;

export interface ToolResult {
  index: number;
  content: string;
  isError: boolean;
  /** When the result was recorded. */
  at?: string;
  /** The subagent a Task call ran (its file is `subagents/agent-<agentId>.jsonl`). */
  agentId?: string;
  /** Likely secrets in the result's entry, by rule (counted at ingest). */
  secrets?: Record<string, number>;
}

export interface ToolCall {
  id: string;
  name: string;
  input: unknown;
  /** Entry index of the tool_use. */
  index: number;
  /** When the tool use was recorded (the call's duration runs from it to its result's). */
  at?: string;
  result?: ToolResult;
  /** Sidechain entries (in this file) of the subagent this call started. */
  subagent?: Entry[];
  /** Likely secrets in the tool use's entry, by rule (counted at ingest). */
  secrets?: Record<string, number>;
}

export type ReaderItem =
  | {
      type: 'message';
      key: string;
      entry: Entry;
      /** A You message's text as the You turn has it (`promptText`); absent for Claude. */
      prompt?: string;
    }
  | {
      type: 'tools';
      key: string;
      calls: ToolCall[];
      orphans: Array<ToolResult & { toolUseId: string }>;
      entries: number[];
    }
  | {
      type: 'notice';
      key: string;
      entry: Entry;
      /** The badge when the line's neighbours tell what it is (a slash command's prompt). */
      label?: string;
    }
  | { type: 'meta'; key: string; entries: Entry[] }
  | { type: 'subagent'; key: string; entries: Entry[] };

export interface GroupOptions {
  /** Group sidechain entries under the call that started them (main transcript); off for a subagent file. */
  groupSidechains: boolean;
}

const TASK_TOOLS = new Set(['Task', 'Agent']);

function promptOf(input: unknown): string | undefined {
  if (input && typeof input === 'object' && 'prompt' in input) {
    const p = (input as { prompt?: unknown }).prompt;
    return typeof p === 'string' ? p.trim() : undefined;
  }
  return undefined;
}

export class EntryGrouper {
  readonly options: GroupOptions;
  #items: ReaderItem[] = [];
  #count = 0;
  /** tool_use id → item position. */
  #callItem = new Map<string, number>();
  /** entry index → item position. */
  #entryItem = new Map<number, number>();
  /** The tools item a following tool call may join, or -1. */
  #openRun = -1;
  /** Sidechain uuid → owning call id. */
  #sidechainOwner = new Map<string, string>();
  /** Task/Agent calls in order, for attaching sidechain roots. */
  #taskCalls: string[] = [];
  /** The previous main-file entry (a slash command whose prompt may follow). */
  #previous: Entry | undefined;

  constructor(options: GroupOptions) {
    this.options = options;
  }

  /** How many entries have been appended. */
  get count(): number {
    return this.#count;
  }

  get items(): ReaderItem[] {
    return this.#items;
  }

  /** The position of the item that shows entry `index`, or undefined when not loaded. */
  itemOf(index: number): number | undefined {
    return this.#entryItem.get(index);
  }

  /** Appends the next entries (in file order); returns the new items array. */
  append(entries: readonly Entry[]): ReaderItem[] {
    if (entries.length === 0) return this.#items;
    const items = this.#items.slice();
    for (const e of entries) this.#add(items, e);
    this.#count += entries.length;
    this.#items = items;
    return items;
  }

  #push(items: ReaderItem[], item: ReaderItem, indexes: number[]): number {
    items.push(item);
    const at = items.length - 1;
    for (const i of indexes) this.#entryItem.set(i, at);
    return at;
  }

  #add(items: ReaderItem[], e: Entry): void {
    if (this.options.groupSidechains && e.isSidechain && !e.malformed) {
      this.#addSidechain(items, e);
      return;
    }
    const previous = this.#previous;
    this.#previous = e;
    const cls = classifyEntry(e);
    switch (cls) {
      case 'message': {
        const prompt = youText(e);
        const item: Extract<ReaderItem, { type: 'message' }> = {
          type: 'message',
          key: `m${e.index}`,
          entry: e,
        };
        if (prompt !== null) item.prompt = prompt;
        this.#push(items, item, [e.index]);
        this.#openRun = -1;
        if (e.role === 'assistant' && e.toolUses && e.toolUses.length > 0) this.#addCalls(items, e);
        return;
      }
      case 'tools':
        this.#addCalls(items, e);
        return;
      case 'results':
        this.#addResults(items, e);
        return;
      case 'notice': {
        const item: Extract<ReaderItem, { type: 'notice' }> = {
          type: 'notice',
          key: `n${e.index}`,
          entry: e,
        };
        // A meta line right after a prompting slash command is what the command sent Claude.
        const label = noticeLabelAfter(e, previous);
        if (label !== noticeLabel(e)) item.label = label;
        this.#push(items, item, [e.index]);
        this.#openRun = -1;
        return;
      }
      case 'meta': {
        // Bookkeeping never breaks a run of tool calls: it joins the run, hidden.
        if (this.#openRun >= 0) {
          const run = items[this.#openRun] as Extract<ReaderItem, { type: 'tools' }>;
          items[this.#openRun] = { ...run, entries: [...run.entries, e.index] };
          this.#entryItem.set(e.index, this.#openRun);
          return;
        }
        const last = items[items.length - 1];
        if (last && last.type === 'meta') {
          items[items.length - 1] = { ...last, entries: [...last.entries, e] };
          this.#entryItem.set(e.index, items.length - 1);
          return;
        }
        this.#push(items, { type: 'meta', key: `x${e.index}`, entries: [e] }, [e.index]);
        return;
      }
    }
  }

  #run(items: ReaderItem[], firstIndex: number): number {
    if (this.#openRun >= 0) return this.#openRun;
    this.#openRun = this.#push(
      items,
      { type: 'tools', key: `t${firstIndex}`, calls: [], orphans: [], entries: [] },
      [],
    );
    return this.#openRun;
  }

  #addCalls(items: ReaderItem[], e: Entry): void {
    const at = this.#run(items, e.index);
    const run = items[at] as Extract<ReaderItem, { type: 'tools' }>;
    const calls = [...run.calls];
    for (const u of e.toolUses ?? []) {
      const call: ToolCall = { id: u.id, name: u.name, input: u.input, index: e.index };
      if (e.secrets) call.secrets = e.secrets;
      if (e.timestamp) call.at = e.timestamp;
      calls.push(call);
      this.#callItem.set(u.id, at);
      if (TASK_TOOLS.has(u.name)) this.#taskCalls.push(u.id);
    }
    items[at] = { ...run, calls, entries: [...run.entries, e.index] };
    // A message line that also carried tool uses stays mapped to its message item.
    if (!this.#entryItem.has(e.index)) this.#entryItem.set(e.index, at);
  }

  #updateCall(
    items: ReaderItem[],
    id: string,
    change: (c: ToolCall) => ToolCall,
    entryIndex: number,
  ): boolean {
    const at = this.#callItem.get(id);
    if (at === undefined) return false;
    const run = items[at] as Extract<ReaderItem, { type: 'tools' }>;
    const calls = run.calls.map((c) => (c.id === id ? change(c) : c));
    items[at] = {
      ...run,
      calls,
      entries: run.entries.includes(entryIndex) ? run.entries : [...run.entries, entryIndex],
    };
    if (!this.#entryItem.has(entryIndex)) this.#entryItem.set(entryIndex, at);
    return true;
  }

  #addResults(items: ReaderItem[], e: Entry): void {
    const results = e.toolResults ?? [];
    let placed = false;
    for (const r of results) {
      const result: ToolResult = { index: e.index, content: r.content, isError: r.isError };
      if (e.secrets) result.secrets = e.secrets;
      if (e.timestamp) result.at = e.timestamp;
      if (r.agentId) result.agentId = r.agentId;
      if (this.#updateCall(items, r.toolUseId, (c) => ({ ...c, result }), e.index)) placed = true;
      else {
        const at = this.#run(items, e.index);
        const run = items[at] as Extract<ReaderItem, { type: 'tools' }>;
        items[at] = {
          ...run,
          orphans: [...run.orphans, { ...result, toolUseId: r.toolUseId }],
          entries: [...run.entries, e.index],
        };
        this.#entryItem.set(e.index, at);
        placed = true;
      }
    }
    if (!placed) {
      // A tool_result line without results (should not happen): keep it visible as bookkeeping.
      this.#push(items, { type: 'meta', key: `x${e.index}`, entries: [e] }, [e.index]);
    }
  }

  #ownerOfSidechain(items: ReaderItem[], e: Entry): string | undefined {
    if (e.parentUuid && this.#sidechainOwner.has(e.parentUuid)) return this.#sidechainOwner.get(e.parentUuid);
    const text = e.role === 'user' ? e.text?.trim() : undefined;
    let open: string | undefined;
    let any: string | undefined;
    for (let i = this.#taskCalls.length - 1; i >= 0; i--) {
      const id = this.#taskCalls[i]!;
      const run = items[this.#callItem.get(id)!] as Extract<ReaderItem, { type: 'tools' }>;
      const call = run.calls.find((c) => c.id === id);
      if (!call) continue;
      if (text && promptOf(call.input) === text) return id;
      if (open === undefined && call.result === undefined) open = id;
      if (any === undefined) any = id;
    }
    // A root whose prompt matches no call: the call still waiting for its result, else the latest.
    return open ?? any;
  }

  #addSidechain(items: ReaderItem[], e: Entry): void {
    const owner = this.#ownerOfSidechain(items, e);
    if (owner !== undefined) {
      if (e.uuid) this.#sidechainOwner.set(e.uuid, owner);
      this.#updateCall(items, owner, (c) => ({ ...c, subagent: [...(c.subagent ?? []), e] }), e.index);
      return;
    }
    const last = items[items.length - 1];
    if (last && last.type === 'subagent') {
      items[items.length - 1] = { ...last, entries: [...last.entries, e] };
      this.#entryItem.set(e.index, items.length - 1);
      return;
    }
    this.#push(items, { type: 'subagent', key: `s${e.index}`, entries: [e] }, [e.index]);
  }
}

/** Groups a whole list at once (tests, small transcripts). */
export function groupEntries(
  entries: readonly Entry[],
  options: GroupOptions,
): { items: ReaderItem[]; itemOf: (index: number) => number | undefined } {
  const g = new EntryGrouper(options);
  const items = g.append(entries);
  return { items, itemOf: (i) => g.itemOf(i) };
}

export interface SubagentFileHead {
  file: string;
  agentId?: string;
  /** Text of the file's first user entry: the prompt the Task call sent. */
  prompt?: string;
}

/**
 * Which subagent file (the 2.x layout keeps each subagent in `subagents/agent-*.jsonl`) a
 * Task/Agent call started: the one its result names (`agentId`), else the file whose first
 * prompt is the call's `input.prompt` (results written before Claude Code named agents).
 */
export function subagentFileFor(
  call: Pick<ToolCall, 'name' | 'input' | 'result'>,
  heads: readonly SubagentFileHead[],
): SubagentFileHead | undefined {
  if (!TASK_TOOLS.has(call.name)) return undefined;
  const agentId = call.result?.agentId;
  if (agentId) {
    const named = heads.find((h) => h.agentId === agentId || h.file === `subagents/agent-${agentId}.jsonl`);
    if (named) return named;
  }
  const prompt = promptOf(call.input);
  if (!prompt) return undefined;
  return heads.find((h) => h.prompt?.trim() === prompt);
}

/** A one-line summary of a run of calls: `Read ×3, Bash, Edit ×2`. */
export function summarizeCalls(calls: readonly Pick<ToolCall, 'name'>[]): string {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}
