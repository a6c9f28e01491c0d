import { viewMigration } from './migration.js';

export const sessionsByModel = viewMigration({
  version: 3,
  name: 'sessions-by-model',
  view: 'sessions_by_model',
  description: 'Index of sessions by every model they used, for the model filter.',
  from: ['summary'],
});
