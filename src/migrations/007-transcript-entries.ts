import { viewMigration } from './migration.js';

export const transcriptEntries = viewMigration({
  version: 7,
  name: 'transcript-entries',
  view: 'transcript_entries',
  description: 'Transcript entries by session, file and index, for paged reading.',
  from: ['chunk'],
});
