import { viewMigration } from './migration.js';

export const fullText = viewMigration({
  version: 9,
  name: 'full-text',
  view: 'full_text',
  description: 'Full-text index over entry text, thinking, tool inputs and results, with snippets.',
  from: ['chunk'],
});
