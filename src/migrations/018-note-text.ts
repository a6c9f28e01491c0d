import { viewMigration } from './migration.js';

export const noteText = viewMigration({
  version: 18,
  name: 'note-text',
  view: 'note_text',
  description:
    "Full-text index over sessions' notes and bookmarks' notes, searched with the entries " +
    '(user data: the annotation documents stay when the view is dropped).',
  from: ['annotation'],
});
