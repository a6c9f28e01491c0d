/**
 * Session ids of corpus transcripts whose file is not named by its id: the session is the uuid
 * their lines give (src/ingest/scan-tree.ts, sessionIdOf), not the file's stem.
 */
/** yoavf__ai-sessions/claude-code-pomodoro-timer.jsonl */
export const POMODORO = '36d9e1bc-63bf-4e97-8a3e-2b20ba8583f2';
/** slopus__happy/rate-limit.jsonl: a prompt and a synthetic rate-limit error, two lines. */
export const RATE_LIMIT = 'c1d0a6cf-1f6c-4bb0-9a5a-2b0c2f5f9d10';
/** randlee__claude-history/claude-history-simple/session.jsonl (v2.1.29), with its agents/ files. */
export const HISTORY_EXPORT = '967e501d-aa48-4eab-a21f-b17058bd78f0';
/** slopus__happy/completed.jsonl: one goal_status attachment line, no message. */
export const GOAL_STATUS = '204f1ce3-84e7-4985-849f-4489c1ab3894';
