import { reshapeMigration } from './migration.js';

/**
 * A search index made in an older form is brought to the current one: CJK rows indexed again, the
 * rest marked for `transcripts reindex` (on PostgreSQL also the insertion order, the word pairs
 * and the tsvector's storage). Down leaves the rows as they are: older versions read this form.
 */
export const fullTextForm = reshapeMigration({
  version: 14,
  name: 'full-text-form',
  reshape: 'full_text_form',
});
