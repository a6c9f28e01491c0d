/**
 * A session made into a share document (share/share-model.ts) from the store: every entry of its
 * main transcript and of each subagent file, each subagent folded under the Task call that ran
 * it (or after the conversation when no call names it), then one redaction pass unless turned
 * off. The share route renders it as HTML or Markdown.
 */
import { type ProjectedEntry } from '../core/documents.js';
import { MAIN_TRANSCRIPT } from '../core/doc-ids.js';
import { formatDuration } from '../core/display-format.js';
import type { SecretPattern } from '../secrets/scan.js';
import {
  redactShareDoc,
  shareItems,
  type ShareDoc,
  type ShareItem,
  type ShareOptions,
  type ShareThread,
} from '../share/share-model.js';
import type { Store } from '../store/contract.js';
import type { Session } from './schemas/sessions.js';

const PAGE = 1000;

async function allEntries(store: Store, id: string, file: string): Promise<ProjectedEntry[]> {
  const out: ProjectedEntry[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.views.transcriptPage(id, file, { offset, limit: PAGE });
    out.push(...page.entries);
    if (page.entries.length < PAGE || offset + PAGE >= page.total) return out;
  }
}

/** `subagents/agent-a0a29.jsonl` → `a0a29`: the id Task results name their subagent by. */
const agentIdOf = (file: string) => /^subagents\/agent-(.+)\.jsonl$/.exec(file)?.[1] ?? file;

/** Every thread reachable from `items` (through tool calls and nested threads). */
function reachedThreads(items: readonly ShareItem[], into = new Set<ShareThread>()): Set<ShareThread> {
  for (const it of items) {
    if (it.kind === 'thread') {
      into.add(it);
      reachedThreads(it.items, into);
    } else for (const c of it.tools) if (c.thread && !into.has(c.thread)) reachedThreads([c.thread], into);
  }
  return into;
}

export function shareFacts(s: Session): Array<[string, string]> {
  return [
    ['Session', s.id],
    ['Project', `${s.project ?? '—'} (${s.cwd ?? 'unknown directory'})`],
    ['Model', s.models.join(', ') || '—'],
    ['Started', s.startedAt ?? '—'],
    ['Last activity', s.lastActivity ?? '—'],
    ['Active time', formatDuration(s.activeTimeMs)],
  ];
}

export async function buildShareDoc(
  store: Store,
  session: Session,
  options: ShareOptions,
  patterns: readonly SecretPattern[],
): Promise<ShareDoc> {
  const threads = new Map<string, ShareThread>();
  for (const f of session.files) {
    if (f.name === MAIN_TRANSCRIPT) continue;
    const items = shareItems(await allEntries(store, session.id, f.name), options);
    threads.set(agentIdOf(f.name), { kind: 'thread', title: `Subagent ${agentIdOf(f.name)}`, items });
  }
  const hasMain = session.files.some((f) => f.name === MAIN_TRANSCRIPT);
  const items = hasMain
    ? shareItems(await allEntries(store, session.id, MAIN_TRANSCRIPT), options, threads)
    : [];
  // Subagents no kept Task call names (tools left out, or an older layout) come after.
  const reached = reachedThreads(items);
  for (const t of threads.values()) if (!reached.has(t) && t.items.length) items.push(t);
  const doc: ShareDoc = {
    title: session.title ?? session.id,
    facts: shareFacts(session),
    items,
    redactions: {},
  };
  return options.redact ? redactShareDoc(doc, patterns) : doc;
}
