import { viewMigration } from './migration.js';

export const sessionAnnotations = viewMigration({
  version: 11,
  name: 'session-annotations',
  view: 'session_annotations',
  description:
    'Stars, tags, notes and bookmarks people put on sessions, indexed from the annotation documents ' +
    '(user data: the documents stay when the view is dropped).',
  from: ['annotation'],
});
