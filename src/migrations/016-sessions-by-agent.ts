import { viewMigration } from './migration.js';

/**
 * The agent filter's index. The rollup's `agent` column it indexes is derived from each summary
 * (agents.ts `summaryAgent`: a summary from before `agent` was kept is Codex's or Claude Code's by
 * its models) and added to rollups made by earlier versions by migration 15, so this migration only
 * builds the index, and its down only drops it.
 */
export const sessionsByAgent = viewMigration({
  version: 16,
  name: 'sessions-by-agent',
  view: 'sessions_by_agent',
  description:
    'Index of sessions by the agent that wrote them (claude-code, codex, gemini, opencode), for the agent filter.',
  from: ['summary'],
});
