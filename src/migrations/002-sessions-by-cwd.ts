import { viewMigration } from './migration.js';

export const sessionsByCwd = viewMigration({
  version: 2,
  name: 'sessions-by-cwd',
  view: 'sessions_by_cwd',
  description: 'Index of sessions by working directory, newest first, for the cwd filter.',
  from: ['summary'],
});
