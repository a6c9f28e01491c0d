import { viewMigration } from './migration.js';

export const sessionRollup = viewMigration({
  version: 1,
  name: 'session-rollup',
  view: 'session_rollup',
  description:
    'One row per session: the summary document merged with its hook events (status inputs, activity, first/last activity).',
  from: ['summary', 'event'],
});
