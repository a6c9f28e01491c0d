/**
 * The agents whose sessions `transcripts` reads, by the ids a session's summary records
 * (`summary.agent`) and the `agent` filter takes. The ingest providers
 * (`src/ingest/providers/`) are one per id.
 */
export const AGENT_IDS = ['claude-code', 'codex', 'gemini', 'opencode'] as const;
export type Agent = (typeof AGENT_IDS)[number];

/**
 * Models only Codex CLI runs (OpenAI's): a summary written before `agent` was kept is Codex's when
 * one of its models is one of these, Claude Code's otherwise, since those two were the only
 * agents read then and Codex rollouts always name their model (`turn_context.model`).
 */
const OPENAI_MODEL = /^(gpt-|o\d|codex)/i;

/** The agent of a summary document: its `agent`, or for an older summary, the rule above. */
export function summaryAgent(doc: Record<string, unknown>): string {
  if (typeof doc.agent === 'string' && doc.agent !== '') return doc.agent;
  const models = Array.isArray(doc.models) ? doc.models : [];
  return models.some((m) => typeof m === 'string' && OPENAI_MODEL.test(m)) ? 'codex' : 'claude-code';
}
