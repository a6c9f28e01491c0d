import { viewMigration } from './migration.js';

export const sessionsBySource = viewMigration({
  version: 5,
  name: 'sessions-by-source',
  view: 'sessions_by_source',
  description: 'Index of sessions by recorder (source), for the source filter.',
  from: ['summary'],
});
