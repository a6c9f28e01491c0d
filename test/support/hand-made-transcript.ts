/**
 * Pieces of hand-made transcripts for tests whose point is a particular text (hostile escape
 * sequences, hidden characters) passing through the real ingest, API and readers.
 */

/** `ascii` as Unicode tag characters: invisible text a model reads (core/hidden-characters.ts). */
export function tagCharacters(ascii: string): string {
  return [...ascii].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
}

/** A person's line: `content` is the prompt, or a list of blocks (tool results). */
export function userRecord(uuid: string, content: string | object[]): object {
  return { type: 'user', uuid, message: { role: 'user', content } };
}

/** Claude's line (model `claude-test`): `content` is its text, or a list of blocks. */
export function assistantRecord(uuid: string, content: string | object[]): object {
  return { type: 'assistant', uuid, message: { role: 'assistant', model: 'claude-test', content } };
}

/**
 * Claude Code transcript lines (JSON, without newlines) from `records`, each given the session's
 * id, its `fields` (cwd, git branch) and a timestamp one second after the one before, from `start`.
 */
export function transcriptLines(
  records: object[],
  session: { sessionId: string; start: string; fields?: Record<string, unknown> },
): string[] {
  const start = Date.parse(session.start);
  return records.map((r, i) =>
    JSON.stringify({
      ...r,
      sessionId: session.sessionId,
      ...session.fields,
      timestamp: new Date(start + i * 1000).toISOString(),
    }),
  );
}
