import { viewMigration } from './migration.js';

export const dailyActivity = viewMigration({
  version: 10,
  name: 'daily-activity',
  view: 'daily_activity',
  description: 'Active time and entries per session per UTC day, behind the calendar.',
  from: ['summary', 'event'],
});
