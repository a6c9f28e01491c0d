/**
 * A session rendered as Markdown (DESIGN §12: per-session export): a header with the session's
 * facts, then the conversation — the person's prompts, Claude's replies, tool calls named with a
 * short input preview. Subagent (sidechain) lines and tool results are left out for readability;
 * the JSON routes keep everything.
 */
import { MAIN_TRANSCRIPT, type ProjectedEntry } from '../core/documents.js';
import { isRealPrompt } from '../core/transcript/turns.js';
import type { Store } from '../store/contract.js';
import type { Session } from './schemas/sessions.js';

const PAGE = 1000;
const PREVIEW = 200;

function duration(ms: number | null): string {
  if (ms === null) return '—';
  const m = Math.round(ms / 60_000);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

function preview(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW ? `${flat.slice(0, PREVIEW)}…` : flat;
}

function renderEntry(e: ProjectedEntry): string[] {
  if (e.isSidechain) return [];
  const when = e.timestamp ? ` · ${e.timestamp}` : '';
  const out: string[] = [];
  if (e.role === 'user' && isRealPrompt(e)) {
    out.push(`### You${when}`, '', e.text!.trim(), '');
  } else if (e.role === 'assistant') {
    const text = e.text?.trim();
    if (text) out.push(`### Claude${when}`, '', text, '');
    for (const t of e.toolUses ?? []) {
      out.push(`> **${t.name}** \`${preview(t.input).replace(/`/g, "'")}\``, '');
    }
  }
  return out;
}

export async function renderMarkdown(store: Store, session: Session): Promise<string> {
  const lines: string[] = [
    `# ${session.title ?? session.id}`,
    '',
    `- **Session:** \`${session.id}\``,
    `- **Project:** ${session.project ?? '—'} (${session.cwd ?? 'unknown cwd'})`,
    `- **Model:** ${session.models.join(', ') || '—'}`,
    `- **Host:** ${session.hostname ?? '—'} · **Source:** ${session.source} · **Provenance:** ${session.provenance}`,
    `- **Started:** ${session.startedAt ?? '—'} · **Last activity:** ${session.lastActivity ?? '—'} · **Status:** ${session.status}`,
    `- **Runtime:** ${duration(session.runtimeMs)} · **Active:** ${duration(session.activeTimeMs)}`,
    `- **Tokens:** ${session.tokens.input} in, ${session.tokens.output} out, ${session.tokens.cacheRead} cache read, ${session.tokens.cacheWrite} cache write`,
    '',
    '---',
    '',
  ];
  for (let offset = 0; ; offset += PAGE) {
    const page = await store.views.transcriptPage(session.id, MAIN_TRANSCRIPT, { offset, limit: PAGE });
    for (const e of page.entries) lines.push(...renderEntry(e));
    if (page.entries.length < PAGE || offset + PAGE >= page.total) break;
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
