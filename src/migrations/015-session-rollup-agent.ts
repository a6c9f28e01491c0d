import { reshapeMigration } from './migration.js';

/** A rollup made before the agent filter gets its `agent` column, filled from each summary; down drops it. */
export const sessionRollupAgent = reshapeMigration({
  version: 15,
  name: 'session-rollup-agent',
  reshape: 'session_rollup_agent',
});
