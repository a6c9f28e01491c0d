import { viewMigration } from './migration.js';

export const sessionsByTime = viewMigration({
  version: 6,
  name: 'sessions-by-time',
  view: 'sessions_by_time',
  description: 'Index of sessions by first and last activity, for from/to range-overlap queries.',
  from: ['summary', 'event'],
});
