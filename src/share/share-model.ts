/**
 * What a shared session holds, before it is rendered as HTML or Markdown: the conversation's
 * turns (the person's prompts, Claude's replies with their thinking and tool calls, each call
 * with its result), and subagent threads (a Task call's own transcript, or the sidechain lines
 * of older transcripts) folded where they ran. Options leave out a side, the tools or the
 * thinking. Every text in it goes through one redaction pass (secrets/redact.ts).
 */
import type { ProjectedEntry } from '../core/documents.js';
import { promptText } from '../core/transcript/turns.js';
import { redactTexts, type RedactionCounts } from '../secrets/redact.js';
import type { SecretPattern } from '../secrets/scan.js';

export type ShareRole = 'you' | 'claude' | 'both';

export interface ShareOptions {
  role: ShareRole;
  tools: boolean;
  thinking: boolean;
  redact: boolean;
}

export const DEFAULT_SHARE_OPTIONS: ShareOptions = {
  role: 'both',
  tools: true,
  thinking: true,
  redact: true,
};

export interface ShareToolCall {
  name: string;
  /** The input as pretty JSON (or the string given). */
  input: string;
  result?: string;
  isError?: boolean;
  /** The subagent this call ran, when its transcript is kept. */
  thread?: ShareThread;
}

export interface ShareTurn {
  kind: 'turn';
  speaker: 'you' | 'claude';
  timestamp?: string;
  text?: string;
  thinking?: string;
  tools: ShareToolCall[];
}

export interface ShareThread {
  kind: 'thread';
  title: string;
  items: ShareItem[];
}

export type ShareItem = ShareTurn | ShareThread;

/** The header's facts, as label and value. */
export type ShareFacts = Array<[string, string]>;

export interface ShareDoc {
  title: string;
  facts: ShareFacts;
  items: ShareItem[];
  /** Redactions made, by rule (empty when nothing was found or redaction was off). */
  redactions: RedactionCounts;
}

const inputText = (input: unknown): string =>
  typeof input === 'string' ? input : (JSON.stringify(input, null, 2) ?? '');

/** The turns of one file's entries; `threads` gives a subagent's items by its agent id. */
export function shareItems(
  entries: readonly ProjectedEntry[],
  options: ShareOptions,
  threads: ReadonlyMap<string, ShareThread> = new Map(),
): ShareItem[] {
  const items: ShareItem[] = [];
  const calls = new Map<string, ShareToolCall>();
  const wantYou = options.role !== 'claude';
  const wantClaude = options.role !== 'you';
  // Sidechain lines inside the main file (the layout before 2.0) gather into a folded thread.
  let sidechain: ShareItem[] | null = null;
  let out = items;
  for (const e of entries) {
    if (e.isSidechain && out === items) {
      sidechain = [];
      out = sidechain;
    } else if (!e.isSidechain && sidechain) {
      if (sidechain.length) items.push({ kind: 'thread', title: 'Subagent', items: sidechain });
      sidechain = null;
      out = items;
    }
    for (const r of e.toolResults ?? []) {
      const call = calls.get(r.toolUseId);
      if (!call) continue;
      call.result = r.content;
      call.isError = r.isError;
      if (r.agentId && threads.has(r.agentId)) call.thread = threads.get(r.agentId);
    }
    const prompt = promptText(e);
    if (prompt !== null) {
      if (wantYou)
        out.push({ kind: 'turn', speaker: 'you', timestamp: e.timestamp, text: prompt, tools: [] });
      continue;
    }
    if (e.role !== 'assistant' || !wantClaude) continue;
    const tools: ShareToolCall[] = [];
    for (const t of e.toolUses ?? []) {
      const call: ShareToolCall = { name: t.name, input: inputText(t.input) };
      calls.set(t.id, call);
      if (options.tools) tools.push(call);
    }
    const text = e.text?.trim() || undefined;
    const thinking = options.thinking ? e.thinking?.trim() || undefined : undefined;
    if (!text && !thinking && tools.length === 0) continue;
    out.push({ kind: 'turn', speaker: 'claude', timestamp: e.timestamp, text, thinking, tools });
  }
  if (sidechain?.length) items.push({ kind: 'thread', title: 'Subagent', items: sidechain });
  return items;
}

/** Every text of the document, as a getter and a setter, for the one redaction pass. */
function textSlots(doc: ShareDoc): Array<{ get: () => string; set: (v: string) => void }> {
  const slots: Array<{ get: () => string; set: (v: string) => void }> = [];
  const seen = new Set<object>();
  slots.push({ get: () => doc.title, set: (v) => (doc.title = v) });
  for (const f of doc.facts) slots.push({ get: () => f[1], set: (v) => (f[1] = v) });
  const visit = (items: ShareItem[]) => {
    for (const it of items) {
      if (seen.has(it)) continue; // a thread is reached once, from its call or the end of the list
      seen.add(it);
      if (it.kind === 'thread') {
        visit(it.items);
        continue;
      }
      if (it.text !== undefined) slots.push({ get: () => it.text!, set: (v) => (it.text = v) });
      if (it.thinking !== undefined) slots.push({ get: () => it.thinking!, set: (v) => (it.thinking = v) });
      for (const c of it.tools) {
        slots.push({ get: () => c.input, set: (v) => (c.input = v) });
        if (c.result !== undefined) slots.push({ get: () => c.result!, set: (v) => (c.result = v) });
        if (c.thread) visit([c.thread]);
      }
    }
  };
  visit(doc.items);
  return slots;
}

/** Replaces every likely secret in the document; returns it with the counts by rule. */
export async function redactShareDoc(doc: ShareDoc, patterns: readonly SecretPattern[]): Promise<ShareDoc> {
  const slots = textSlots(doc);
  const { texts, counts } = await redactTexts(
    slots.map((s) => s.get()),
    patterns,
  );
  slots.forEach((s, i) => s.set(texts[i]!));
  doc.redactions = counts;
  return doc;
}
