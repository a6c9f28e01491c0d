import { reshapeMigration } from './migration.js';

/**
 * A rollup made before the list's text filter, its sorts and the token totals gets their columns,
 * filled from each session's summary; down drops them.
 */
export const sessionRollupColumns = reshapeMigration({
  version: 12,
  name: 'session-rollup-columns',
  reshape: 'session_rollup_columns',
});
