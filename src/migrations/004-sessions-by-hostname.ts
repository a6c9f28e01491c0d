import { viewMigration } from './migration.js';

export const sessionsByHostname = viewMigration({
  version: 4,
  name: 'sessions-by-hostname',
  view: 'sessions_by_hostname',
  description: 'Index of sessions by host name, for the hostname filter.',
  from: ['summary'],
});
