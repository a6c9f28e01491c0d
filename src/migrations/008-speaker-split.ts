import { viewMigration } from './migration.js';

export const speakerSplit = viewMigration({
  version: 8,
  name: 'speaker-split',
  view: 'speaker_split',
  description: 'The You / Claude turns of each session, from full-content chunks.',
  from: ['chunk'],
});
