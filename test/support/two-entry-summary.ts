/**
 * A summary document as ingest writes it for a small session of two entries (one prompt, one
 * answer) between two instants: the body the ingest-route, bounds and fuzz tests post to
 * /api/ingest/docs, each changing what its case is about through `overrides`.
 */
export interface TwoEntrySummaryOptions {
  /** First and last activity, in epoch milliseconds. */
  first: number;
  last: number;
  cwd: string;
  title: string;
  transcriptBytes: number;
}

export function twoEntrySummary(
  sessionId: string,
  { first, last, cwd, title, transcriptBytes }: TwoEntrySummaryOptions,
  overrides: Record<string, unknown> = {},
) {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    _id: `summary:${sessionId}`,
    type: 'summary',
    sessionId,
    timestamp: iso(last),
    cwd,
    project: cwd.split('/').pop(),
    models: ['claude-sonnet-4-20250514'],
    hostname: 'h1',
    gitBranch: null,
    source: 'test',
    provenance: 'backfilled',
    version: '2.0.0',
    firstActivity: iso(first),
    lastActivity: iso(last),
    title,
    titleSource: 'prompt',
    counts: {
      entries: 2,
      prompts: 1,
      assistantMessages: 1,
      toolCalls: 0,
      toolErrors: 0,
      malformed: 0,
      sidechainEntries: 0,
      compactions: 0,
      images: 0,
    },
    toolCallsByName: {},
    tokens: { input: 1, output: 2, cacheWrite: 0, cacheRead: 0 },
    transcriptBytes,
    files: [{ name: 'transcript.jsonl', bytes: transcriptBytes, entries: 2 }],
    subagents: 0,
    activity: [[first, last]],
    ...overrides,
  };
}
